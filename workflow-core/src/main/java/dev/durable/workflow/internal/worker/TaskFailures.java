package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.internal.runtime.WorkflowTaskFailedException;
import dev.durable.workflow.internal.execution.WakeScheduler;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.store.RunOwnership;
import dev.durable.workflow.internal.store.RunRow;

/**
 * A workflow task that failed in workflow code (a bug, non-determinism): the run stays
 * open, the failure is recorded on its row for {@code describe()}, and the task is
 * retried with an exponential backoff (1 s doubling, at most 10 minutes) until fixed code
 * runs it.
 */
final class TaskFailures {

	private static final Logger log = LoggerFactory.getLogger(TaskFailures.class);

	private static final Duration MAX_TASK_RETRY = Duration.ofMinutes(10);

	private final RunOwnership ownership;

	private final UUID node;

	private final Clock clock;

	private final WakeScheduler wake;

	private final Listeners listeners;

	private final Consumer<RunSlot> retry;

	private final Consumer<RunSlot> lost;

	TaskFailures(RunOwnership ownership, UUID node, Clock clock, WakeScheduler wake, Listeners listeners,
			Consumer<RunSlot> retry, Consumer<RunSlot> lost) {
		this.ownership = ownership;
		this.node = node;
		this.clock = clock;
		this.wake = wake;
		this.listeners = listeners;
		this.retry = retry;
		this.lost = lost;
	}

	/**
	 * Records the failed attempt and schedules the next; a run lost meanwhile is let go.
	 */
	void failed(RunSlot slot, RunRow row, RuntimeException failure) {
		int attempt = row.taskAttempt() + 1;
		Duration backoff = Duration.ofSeconds(1).multipliedBy(1L << Math.min(attempt - 1, 20));
		if (backoff.compareTo(MAX_TASK_RETRY) > 0) {
			backoff = MAX_TASK_RETRY;
		}
		Instant retryAt = this.clock.instant().plus(backoff);
		String reason = failure.getClass().getSimpleName() + ": " + failure.getMessage();
		Throwable cause = failure.getCause();
		if (cause != null && cause != failure) {
			reason = cause.getClass().getSimpleName() + ": " + cause.getMessage();
		}
		log.warn("Workflow task of run {} ({}) failed, attempt {}; retrying at {}: {}", row.runId(), row.workflowType(),
				attempt, retryAt, reason, (attempt == 1) ? failure : null);
		slot.retryNotBefore(retryAt);
		// the listeners get what went wrong (the code's exception), not the engine's
		// wrapper
		this.listeners.taskFailed((failure instanceof WorkflowTaskFailedException && cause != null) ? cause : failure);
		if (this.ownership.recordTaskFailure(row.runId(), this.node, slot.epoch(), reason, retryAt.minus(backoff),
				retryAt)) {
			this.wake.schedule(retryAt, () -> this.retry.accept(slot));
		}
		else {
			this.lost.accept(slot);
		}
	}

}
