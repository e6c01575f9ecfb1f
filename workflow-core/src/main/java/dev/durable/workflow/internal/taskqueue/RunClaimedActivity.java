package dev.durable.workflow.internal.taskqueue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.internal.activity.ActivityAttempt;
import dev.durable.workflow.internal.activity.ActivityInvoker;
import dev.durable.workflow.internal.activity.RetryDecision;
import dev.durable.workflow.internal.activity.TaskToken;
import dev.durable.workflow.internal.activity.ThrottledHeartbeats;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.store.ActivityPauses;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.RunPauses;
import dev.durable.workflow.internal.store.RunChain;
import dev.durable.workflow.internal.support.InternalJson;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.support.RunMdc;

/**
 * Runs one claimed attempt of a task-queue activity and records its outcome by its token:
 * the result or final failure into the run's inbox (then the run's owner is woken), or
 * the retry back into the queue. A heartbeat that finds the token gone (the workflow
 * canceled the activity, or a sweep timed the attempt out) stops the attempt; so does the
 * worker's periodic check.
 */
final class RunClaimedActivity {

	private static final Logger log = LoggerFactory.getLogger(RunClaimedActivity.class);

	private final ActivityInvoker invoker;

	private final ActivityOutcomes outcomes;

	private final Payloads payloads;

	private final Clock clock;

	private final AttemptObserver observer;

	private final BiConsumer<java.util.UUID, java.util.UUID> wakeRun;

	RunClaimedActivity(ActivityInvoker invoker, ActivityOutcomes outcomes, Payloads payloads, Clock clock,
			AttemptObserver observer, BiConsumer<java.util.UUID, java.util.UUID> wakeRun) {
		this.invoker = invoker;
		this.outcomes = outcomes;
		this.payloads = payloads;
		this.clock = clock;
		this.observer = observer;
		this.wakeRun = wakeRun;
	}

	/** The attempt's context, before it runs (so the worker can stop it). */
	ActivityAttempt prepare(ClaimedActivity claimed) {
		ActivityInfo info = new ActivityInfo(claimed.workflowId(), claimed.runId(), claimed.seq(),
				claimed.activityType(), claimed.attempt(), claimed.scheduledAt());
		String token = new TaskToken(claimed.runId(), claimed.seq(), claimed.token()).encode();
		ActivityAttempt[] self = new ActivityAttempt[1];
		self[0] = new ActivityAttempt(info, claimed.heartbeatDetails(), this.payloads,
				heartbeatSink(claimed, () -> self[0]), this.clock, () -> token);
		return self[0];
	}

	private Consumer<byte[]> heartbeatSink(ClaimedActivity claimed,
			java.util.function.Supplier<ActivityAttempt> attempt) {
		return ThrottledHeartbeats.sink(this.clock,
				ThrottledHeartbeats.intervalFor(claimed.options().heartbeatTimeout()), (details, now) -> {
					ActivityOutcomes.Heartbeat seen = this.outcomes.heartbeatSeen(claimed.runId(), claimed.seq(),
							claimed.token(), details, now);
					if (seen == ActivityOutcomes.Heartbeat.GONE) {
						stop(attempt.get()); // canceled by the workflow, or timed out by
												// a sweep
					}
					else {
						attempt.get().pauseSeen(seen == ActivityOutcomes.Heartbeat.PAUSED);
					}
				});
	}

	/** Stops an attempt whose token is no longer current: its outcome will be dropped. */
	static void stop(ActivityAttempt attempt) {
		if (attempt.finish()) {
			attempt.cancel();
		}
	}

	/** Runs the attempt on this thread and records its outcome. */
	void run(ClaimedActivity claimed, ActivityAttempt attempt) {
		RunMdc mdc = RunMdc.activity(claimed.workflowId(), claimed.runId(), claimed.workflowType(),
				claimed.activityType(), claimed.seq(), claimed.attempt());
		Duration waited = claimed.dueAt().isBefore(claimed.startedAt())
				? Duration.between(claimed.dueAt(), claimed.startedAt()) : Duration.ZERO;
		Object result = null;
		Throwable failure = null;
		attempt.bind();
		try {
			result = this.observer.run(attempt.info(), waited, () -> RunChain.headers(claimed.runChain()), () -> {
				if (this.invoker.isTransactional(claimed.activityType())) {
					throw ApplicationFailure.newNonRetryableFailure("Activity " + claimed.activityType()
							+ " is transactional: it runs inline on the node that owns"
							+ " its run, never from a task queue", "TransactionalActivity");
				}
				return this.invoker.call(claimed.activityType(), claimed.input());
			});
		}
		catch (Throwable ex) {
			failure = ex;
		}
		finally {
			attempt.unbind();
		}
		try {
			record(claimed, attempt, result, failure);
		}
		finally {
			mdc.close();
		}
	}

	private void record(ClaimedActivity claimed, ActivityAttempt attempt, Object result, Throwable thrown) {
		if (thrown == null && attempt.completesAsynchronously() && !attempt.isFinished()) {
			if (!this.outcomes.awaitCompletion(claimed.runId(), claimed.seq(), claimed.token())) {
				log.debug("Activity {} (seq {}) was completed or ended before its method returned",
						claimed.activityType(), claimed.seq());
			}
			return;
		}
		if (!attempt.finish()) {
			return; // canceled, or timed out by a sweep: the outcome is dropped
		}
		Throwable failure = thrown;
		if (failure == null) {
			try {
				deliver(claimed, InboxKind.ACTIVITY_COMPLETED,
						this.invoker.encodeResult(claimed.activityType(), result));
				return;
			}
			catch (ApplicationFailure ex) {
				failure = ex;
			}
		}
		failed(claimed, Failures.toInfo(failure, this.payloads.converter()), attempt.lastHeartbeat());
	}

	private void failed(ClaimedActivity claimed, FailureInfo failure, byte[] lastHeartbeat) {
		// what an operator set meanwhile: options, a new round, a reset
		ActivityPauses.Control control = this.outcomes.pauses().control(claimed.runId(), claimed.seq());
		ActivityOptions options = (control != null) ? control.options(claimed.options()) : claimed.options();
		Instant now = this.clock.instant();
		RetryDecision decision = RetryDecision.after(options, claimed.activityType(), claimed.seq(), claimed.attempt(),
				(control != null) ? control.attemptBase() : 0, claimed.scheduledAt(), failure, now);
		ActivityInfo info = new ActivityInfo(claimed.workflowId(), claimed.runId(), claimed.seq(),
				claimed.activityType(), claimed.attempt(), claimed.scheduledAt());
		this.observer.failed(info, (failure.timeoutType() != null) ? failure.timeoutType().name() : failure.type(),
				decision.retries());
		if (decision.retries()) {
			if (decision.pauses()) {
				// paused before its next attempt becomes claimable
				RunPauses.Paused paused = this.outcomes.pauses()
					.pauseExhausted(claimed.runId(), claimed.seq(), decision.pausedAfter(), now);
				if (paused.changed()) {
					this.wakeRun.accept(claimed.runId(), paused.owner());
				}
			}
			boolean reset = control != null && control.resetPending();
			if (this.outcomes.retry(claimed.runId(), claimed.seq(), claimed.token(), claimed.attempt(),
					reset ? 1 : claimed.attempt() + 1, reset ? now : decision.nextAttemptAt(),
					InternalJson.write(failure), lastHeartbeat, reset && control.dropDetails())) {
				if (reset) {
					this.outcomes.pauses().resetTaken(claimed.runId(), claimed.seq());
				}
				log.info("Activity {} (seq {}) of run {} failed attempt {}: {}; {}", claimed.activityType(),
						claimed.seq(), claimed.runId(), claimed.attempt(), failure.summary(),
						decision.pauses() ? "paused: its attempts are exhausted"
								: "retrying at " + (reset ? now : decision.nextAttemptAt()));
			}
			return;
		}
		deliver(claimed, InboxKind.ACTIVITY_FAILED, InternalJson.write(decision.finalFailure()));
	}

	private void deliver(ClaimedActivity claimed, InboxKind kind, byte[] payload) {
		ActivityOutcomes.Delivered delivered = this.outcomes.deliver(claimed.runId(), claimed.seq(), claimed.token(),
				kind, payload);
		if (delivered.applied()) {
			this.wakeRun.accept(claimed.runId(), delivered.owner());
		}
	}

}
