package dev.durable.workflow.autoconfigure;

import java.time.Duration;

/**
 * Thresholds of the durableWorkflow health contributor and of the stuck runs that the
 * workflows actuator endpoint counts.
 * <p>
 * Bound to {@code durable.workflow.health.*}, as a part of
 * {@link DurableWorkflowProperties}.
 */
public class DurableWorkflowHealthProperties {

	/**
	 * Runnable runs waiting for a workflow task (new input or a due timer) above which
	 * the health is OUT_OF_SERVICE: the workers do not keep up.
	 */
	private long maxBacklog = 10_000;

	/**
	 * Stuck runs above which the health is OUT_OF_SERVICE. A run is stuck when its
	 * workflow task has been failing for longer than stuck-after (a bug in workflow code,
	 * a non-deterministic change).
	 */
	private long maxStuckRuns = 10;

	/**
	 * How long a workflow task must have been failing for its run to count as stuck.
	 */
	private Duration stuckAfter = Duration.ofMinutes(5);

	public long getMaxBacklog() {
		return this.maxBacklog;
	}

	public void setMaxBacklog(long maxBacklog) {
		this.maxBacklog = maxBacklog;
	}

	public long getMaxStuckRuns() {
		return this.maxStuckRuns;
	}

	public void setMaxStuckRuns(long maxStuckRuns) {
		this.maxStuckRuns = maxStuckRuns;
	}

	public Duration getStuckAfter() {
		return this.stuckAfter;
	}

	public void setStuckAfter(Duration stuckAfter) {
		this.stuckAfter = stuckAfter;
	}

}
