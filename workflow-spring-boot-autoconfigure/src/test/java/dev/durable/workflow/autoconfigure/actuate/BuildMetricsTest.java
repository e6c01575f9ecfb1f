package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.BuildStatus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The build gauges: {@code durable.workflow.runs.stranded}, {@code runs.pinned} and
 * {@code build.nodes}, tagged {@code build}, read from a snapshot; a build seen later
 * gets its gauges at that refresh, one that is gone reads 0, and each gauge is registered
 * once.
 */
class BuildMetricsTest {

	private static BuildStatus build(String id, BuildStatus.State state, int nodes, long pinned, long stranded) {
		return new BuildStatus(id, state, 0, nodes, pinned, stranded, 0, Instant.EPOCH, null);
	}

	private static double gauge(MeterRegistry registry, String name, String build) {
		return registry.get(name).tag("build", build).gauge().value();
	}

	@Test
	void strandedAndPinnedRunsAndLiveNodesPerBuild() {
		AtomicReference<List<BuildStatus>> builds = new AtomicReference<>(
				List.of(build("2.0", BuildStatus.State.CURRENT, 2, 5, 0)));
		BuildMetrics metrics = new BuildMetrics(builds::get, Duration.ofMinutes(1));
		MeterRegistry registry = new SimpleMeterRegistry();
		metrics.bindTo(registry);
		metrics.refresh();
		assertThat(gauge(registry, "durable.workflow.build.nodes", "2.0")).isEqualTo(2);
		assertThat(gauge(registry, "durable.workflow.runs.pinned", "2.0")).isEqualTo(5);

		builds.set(List.of(build("2.0", BuildStatus.State.CURRENT, 2, 6, 0),
				build("1.0", BuildStatus.State.DRAINING, 0, 3, 3)));
		metrics.refresh();
		assertThat(gauge(registry, "durable.workflow.runs.stranded", "1.0")).isEqualTo(3);
		assertThat(gauge(registry, "durable.workflow.runs.pinned", "2.0")).isEqualTo(6);

		builds.set(List.of(build("2.0", BuildStatus.State.CURRENT, 2, 6, 0)));
		metrics.refresh();
		assertThat(gauge(registry, "durable.workflow.runs.stranded", "1.0")).as("a build that is gone").isZero();
		assertThat(registry.find("durable.workflow.runs.stranded").gauges()).hasSize(2);
	}

}
