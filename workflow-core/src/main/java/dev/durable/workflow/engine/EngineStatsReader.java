package dev.durable.workflow.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.internal.queue.QueueRepository;
import dev.durable.workflow.internal.store.StatsRepository;

/**
 * The reads behind {@link WorkflowEngine#stats}, {@link WorkflowEngine#backlog} and
 * {@link WorkflowEngine#queues}, by the engine clock.
 */
final class EngineStatsReader {

	/** Examples of failing workflow tasks a snapshot lists. */
	private static final int FAILING_EXAMPLES = 10;

	private final StatsRepository stats;

	private final QueueRepository queues;

	private final Clock clock;

	private final EngineSettings settings;

	EngineStatsReader(StatsRepository stats, QueueRepository queues, Clock clock, EngineSettings settings) {
		this.stats = stats;
		this.queues = queues;
		this.clock = clock;
		this.settings = settings;
	}

	EngineStats stats(@Nullable String workflowType, Duration stuckAfter) {
		String namespace = this.settings.namespace();
		return new EngineStats(this.clock.instant(), this.stats.counts(namespace, workflowType),
				backlog(workflowType, stuckAfter), this.stats.failing(namespace, workflowType, FAILING_EXAMPLES),
				this.stats.nodes(namespace, workflowType, this.settings.deadAfter()));
	}

	EngineStats.Backlog backlog(@Nullable String workflowType, Duration stuckAfter) {
		Instant now = this.clock.instant();
		return this.stats.backlog(this.settings.namespace(), workflowType, now, now.minus(stuckAfter));
	}

	/**
	 * The declared queues of the namespace, and the activity task queues with work, by
	 * the engine clock.
	 */
	List<QueueInfo> queues() {
		String namespace = this.settings.namespace();
		Instant now = this.clock.instant();
		return QueueRepository.withActivities(this.queues.queues(namespace, now),
				this.queues.activityCounts(namespace, now));
	}

}
