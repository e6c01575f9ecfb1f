package dev.durable.workflow.internal.client;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.ActivityCompletionClient;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.internal.activity.ActivityInvoker;
import dev.durable.workflow.internal.activity.RetryDecision;
import dev.durable.workflow.internal.activity.TaskToken;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.store.ActivityPauses;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.RunPauses;
import dev.durable.workflow.internal.support.InternalJson;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.taskqueue.ActivityOutcomes;
import dev.durable.workflow.internal.worker.RunWaker;

/**
 * The completion client: each call is one statement fenced by the attempt's token (see
 * {@link ActivityOutcomes}), then a wake-up of the run's owner. A failure is decided by
 * the activity's retry policy, as one thrown by its method would be: a task-queue
 * activity goes back to its queue, an inline one is retried by the run's owner, a final
 * one goes to the run.
 */
public final class ActivityCompletionClientImpl implements ActivityCompletionClient {

	private final ActivityOutcomes outcomes;

	private final ActivityInvoker invoker;

	private final Payloads payloads;

	private final Clock clock;

	private final RunWaker waker;

	public ActivityCompletionClientImpl(ActivityOutcomes outcomes, ActivityInvoker invoker, Payloads payloads,
			Clock clock, RunWaker waker) {
		this.outcomes = outcomes;
		this.invoker = invoker;
		this.payloads = payloads;
		this.clock = clock;
		this.waker = waker;
	}

	@Override
	public boolean complete(String taskToken, Object result) {
		TaskToken token = TaskToken.decode(taskToken);
		Optional<ActivityOutcomes.Current> current = this.outcomes.current(token.runId(), token.seq(), token.attempt());
		if (current.isEmpty()) {
			return false;
		}
		byte[] encoded;
		try {
			encoded = this.invoker.encodeResult(current.get().activityType(), result);
		}
		catch (ApplicationFailure ex) {
			throw new IllegalArgumentException(ex.getMessage(), ex);
		}
		return delivered(this.outcomes.deliver(token.runId(), token.seq(), token.attempt(),
				InboxKind.ACTIVITY_COMPLETED, encoded));
	}

	@Override
	public boolean fail(String taskToken, ApplicationFailure failure) {
		TaskToken token = TaskToken.decode(taskToken);
		if (failure == null) {
			throw new IllegalArgumentException("A failure is required");
		}
		Optional<ActivityOutcomes.Current> found = this.outcomes.current(token.runId(), token.seq(), token.attempt());
		if (found.isEmpty()) {
			return false;
		}
		ActivityOutcomes.Current current = found.get();
		FailureInfo info = Failures.toInfo(failure, this.payloads.converter());
		// what an operator set: the options of the attempts to come, a new round (a reset
		// that came while this attempt waited applies to the next failure of an attempt
		// that does not complete through this client)
		ActivityPauses.Control control = this.outcomes.pauses().control(token.runId(), token.seq());
		ActivityOptions scheduled = InternalJson.read(current.optionsJson(), ActivityOptions.class);
		ActivityOptions options = (control != null) ? control.options(scheduled) : scheduled;
		Instant now = this.clock.instant();
		RetryDecision decision = RetryDecision.after(options, current.activityType(), token.seq(), current.attempt(),
				(control != null) ? control.attemptBase() : 0, current.scheduledAt(), info, now);
		if (!decision.retries()) {
			return delivered(this.outcomes.deliver(token.runId(), token.seq(), token.attempt(),
					InboxKind.ACTIVITY_FAILED, InternalJson.write(decision.finalFailure())));
		}
		if (decision.pauses()) {
			// paused before its next attempt may start
			RunPauses.Paused paused = this.outcomes.pauses()
				.pauseExhausted(token.runId(), token.seq(), decision.pausedAfter(), now);
			if (paused.changed()) {
				this.waker.wake(token.runId(), paused.owner());
			}
		}
		if (current.onTaskQueue()) {
			return this.outcomes.retry(token.runId(), token.seq(), token.attempt(), current.attempt(),
					decision.nextAttemptAt(), InternalJson.write(info), null);
		}
		return delivered(this.outcomes.retryInline(token.runId(), token.seq(), token.attempt(),
				decision.nextAttemptAt(), InternalJson.write(info)));
	}

	@Override
	public boolean heartbeat(String taskToken, Object details) {
		TaskToken token = TaskToken.decode(taskToken);
		byte[] encoded = (details != null) ? this.payloads.encode(details, Object.class, "heartbeat details") : null;
		return this.outcomes.heartbeat(token.runId(), token.seq(), token.attempt(), encoded, this.clock.instant());
	}

	private boolean delivered(ActivityOutcomes.Delivered delivered) {
		if (delivered.applied()) {
			this.waker.wake(delivered.runId(), delivered.owner());
		}
		return delivered.applied();
	}

}
