package dev.durable.workflow;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.internal.store.StatsRepository;

/** The reads behind {@link WorkflowEngine#stats} and {@link WorkflowEngine#backlog}, by the engine clock. */
final class EngineStatsReader {

	/** Examples of failing workflow tasks a snapshot lists. */
	private static final int FAILING_EXAMPLES = 10;

	private final StatsRepository stats;

	private final Clock clock;

	private final EngineSettings settings;

	EngineStatsReader(StatsRepository stats, Clock clock, EngineSettings settings) {
		this.stats = stats;
		this.clock = clock;
		this.settings = settings;
	}

	EngineStats stats(@Nullable String workflowType, Duration stuckAfter) {
		String namespace = this.settings.namespace();
		return new EngineStats(this.clock.instant(), this.stats.counts(namespace, workflowType),
				backlog(workflowType, stuckAfter), this.stats.failing(namespace, workflowType, FAILING_EXAMPLES),
				this.stats.nodes(workflowType, this.settings.deadAfter()));
	}

	EngineStats.Backlog backlog(@Nullable String workflowType, Duration stuckAfter) {
		Instant now = this.clock.instant();
		return this.stats.backlog(this.settings.namespace(), workflowType, now, now.minus(stuckAfter));
	}

	java.util.List<QueueInfo> queues() {
		throw new UnsupportedOperationException("TODO(issue 17)");
	}

}
