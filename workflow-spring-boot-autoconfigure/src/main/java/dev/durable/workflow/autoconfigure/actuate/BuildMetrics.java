package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;

import dev.durable.workflow.client.BuildStatus;
import dev.durable.workflow.client.WorkerBuilds;

/**
 * Gauges of the builds ({@link WorkerBuilds#list()}), tagged {@code build}:
 * {@code durable.workflow.runs.stranded} (open runs pinned to the build while none of its
 * nodes is live: they wait until one comes back or an operator moves them),
 * {@code durable.workflow.runs.pinned} (open runs pinned to it: 0 once it drained) and
 * {@code durable.workflow.build.nodes} (its live nodes). Cluster-wide values, the same on
 * every node.
 */
public class BuildMetrics extends RefreshedGauges<BuildStatus> {

	/** How often the snapshot is refreshed by default. */
	public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(10);

	private final Supplier<List<BuildStatus>> builds;

	/**
	 * @param builds what the snapshot is read from, typically the builds of
	 * {@code WorkflowClient#builds()}
	 * @param refresh how often it is read
	 */
	public BuildMetrics(Supplier<List<BuildStatus>> builds, Duration refresh) {
		super(refresh, "durable-build-metrics", "build");
		this.builds = builds;
	}

	@Override
	protected Map<String, BuildStatus> read() {
		Map<String, BuildStatus> current = new LinkedHashMap<>();
		for (BuildStatus build : this.builds.get()) {
			current.put(build.buildId(), build);
		}
		return current;
	}

	@Override
	protected void register(MeterRegistry registry, String name) {
		gauge(registry, "durable.workflow.runs.stranded",
				"Open runs pinned to the build while none of its nodes is live", name, BuildStatus::strandedRuns);
		gauge(registry, "durable.workflow.runs.pinned", "Open runs pinned to the build (0: drained)", name,
				BuildStatus::openPinnedRuns);
		gauge(registry, "durable.workflow.build.nodes", "Live nodes of the build", name, BuildStatus::liveNodes);
	}

}
