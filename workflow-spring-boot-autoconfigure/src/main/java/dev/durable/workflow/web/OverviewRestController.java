package dev.durable.workflow.web;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.durable.workflow.client.BuildRouting;
import dev.durable.workflow.client.BuildStatus;
import dev.durable.workflow.client.TopicStatus;
import dev.durable.workflow.engine.EngineStats;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * The generated read endpoint behind the dashboard's overview, {@code GET
 * {base-path}/overview}: the runs by type and status, the backlog of runnable runs, the
 * runs whose workflow task is failing and the stuck ones, the registered nodes and the
 * queues (what the actuator endpoint {@code workflows} tells, for an application that
 * does not expose actuator).
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}")
public class OverviewRestController {

	private final WorkflowEngine engine;

	private final Duration stuckAfter;

	/**
	 * @param engine the engine whose namespace is described
	 * @param stuckAfter how long a workflow task must have been failing for its run to
	 * count as stuck
	 */
	public OverviewRestController(WorkflowEngine engine, Duration stuckAfter) {
		this.engine = engine;
		this.stuckAfter = stuckAfter;
	}

	/**
	 * What the overview shows.
	 *
	 * @param time when it was read (engine clock)
	 * @param nodeId the node that answers
	 * @param runs run counts by workflow type, then by status
	 * @param statusTotals run counts by status, over every type
	 * @param backlog the backlog, failing and stuck runs
	 * @param failingRuns a few runs whose workflow task is failing, the longest failing
	 * first
	 * @param nodes the registered nodes
	 * @param queues the queues and what each holds
	 * @param buildId the build of the node that answers, or {@code null}
	 * @param routing where new runs go
	 * @param builds the builds and their drain status
	 * @param topics the event topics with their waiting runs
	 */
	record Overview(Instant time, UUID nodeId, Map<String, Map<String, Long>> runs, Map<String, Long> statusTotals,
			Backlog backlog, List<EngineStats.FailingRun> failingRuns, List<EngineStats.Node> nodes,
			List<QueueSummary> queues, @Nullable String buildId, BuildRouting routing, List<BuildStatus> builds,
			List<TopicStatus> topics) {
	}

	/**
	 * The backlog.
	 *
	 * @param runnable runnable runs waiting for a workflow task
	 * @param oldestWaitingSeconds how long the oldest of them has waited
	 * @param failing runs whose workflow task is failing
	 * @param stuck runs whose workflow task has been failing for longer than stuckAfter
	 * @param stuckAfter the stuck threshold (ISO-8601)
	 * @param paused open runs an operator paused
	 */
	record Backlog(long runnable, double oldestWaitingSeconds, long failing, long stuck, String stuckAfter,
			long paused) {
	}

	@GetMapping("/overview")
	Overview overview() {
		EngineStats stats = this.engine.stats(this.stuckAfter);
		Map<String, Map<String, Long>> runs = new TreeMap<>();
		Map<String, Long> totals = new TreeMap<>();
		for (EngineStats.RunCount count : stats.runs()) {
			runs.computeIfAbsent(count.workflowType(), (key) -> new TreeMap<>())
				.merge(count.status().name(), count.count(), Long::sum);
			totals.merge(count.status().name(), count.count(), Long::sum);
		}
		EngineStats.Backlog backlog = stats.backlog();
		return new Overview(stats.time(), this.engine.nodeId(), runs, totals,
				new Backlog(backlog.runnable(), backlog.oldestWaiting().toMillis() / 1000.0, backlog.failing(),
						backlog.stuck(), this.stuckAfter.toString(), backlog.paused()),
				stats.failingRuns(), stats.nodes(), QueueSummary.of(this.engine.queues()),
				this.engine.settings().buildId(), this.engine.client().builds().routing(),
				this.engine.client().builds().list(), this.engine.client().topics());
	}

}
