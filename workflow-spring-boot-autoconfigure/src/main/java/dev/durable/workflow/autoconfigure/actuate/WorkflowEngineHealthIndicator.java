package dev.durable.workflow.autoconfigure.actuate;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import dev.durable.workflow.autoconfigure.DurableWorkflowProperties;
import dev.durable.workflow.client.BuildStatus;
import dev.durable.workflow.engine.EngineStats;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * Health of the durable workflow engine: DOWN when the engine is not running (not started
 * yet, or stopped), when it fenced itself (its heartbeat got no answer for its lease, see
 * {@link WorkflowEngine#isFenced()}) or the database cannot be read; OUT_OF_SERVICE when
 * the backlog of runnable runs or the number of stuck runs exceeds its threshold; UP
 * otherwise. The details hold the numbers.
 */
public class WorkflowEngineHealthIndicator extends AbstractHealthIndicator {

	private final WorkflowEngine engine;

	private final DurableWorkflowProperties.Health thresholds;

	/**
	 * Creates the indicator.
	 * @param engine the engine
	 * @param thresholds the backlog and stuck-run thresholds
	 */
	public WorkflowEngineHealthIndicator(WorkflowEngine engine, DurableWorkflowProperties.Health thresholds) {
		super("Durable workflow health check failed");
		this.engine = engine;
		this.thresholds = thresholds;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		builder.withDetail("nodeId", this.engine.nodeId());
		if (!this.engine.isRunning()) {
			builder.down().withDetail("reason", "the workflow engine is not running");
			return;
		}
		if (this.engine.isFenced()) {
			// no query: the node takes no connection while fenced, and the database did
			// not answer it
			builder.down()
				.withDetail("reason", "the database has not answered this node's heartbeat for "
						+ this.engine.settings().lease() + ": it does no work and answers 503 until it does");
			return;
		}
		EngineStats.Backlog backlog = this.engine.backlog(null, this.thresholds.getStuckAfter());
		builder.withDetail("backlog", backlog.runnable())
			.withDetail("oldestWaiting", backlog.oldestWaiting().toString())
			.withDetail("failingRuns", backlog.failing())
			.withDetail("stuckRuns", backlog.stuck())
			.withDetail("pausedRuns", backlog.paused())
			// pinned runs waiting for a node of their build, which has none live
			.withDetail("strandedRuns",
					this.engine.client().builds().list().stream().mapToLong(BuildStatus::strandedRuns).sum())
			.withDetail("cachedRuns", this.engine.cachedRuns());
		if (backlog.runnable() > this.thresholds.getMaxBacklog()) {
			builder.outOfService()
				.withDetail("reason", "backlog of " + backlog.runnable() + " runnable runs exceeds "
						+ this.thresholds.getMaxBacklog());
		}
		else if (backlog.stuck() > this.thresholds.getMaxStuckRuns()) {
			builder.outOfService()
				.withDetail("reason", backlog.stuck() + " runs whose workflow task has failed for more than "
						+ this.thresholds.getStuckAfter() + " exceed " + this.thresholds.getMaxStuckRuns());
		}
		else {
			builder.up();
		}
	}

}
