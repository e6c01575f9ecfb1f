package dev.durable.workflow.internal.inline;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.internal.activity.ActivityAttempt;
import dev.durable.workflow.internal.activity.ActivityInvoker;
import dev.durable.workflow.internal.activity.RetryDecision;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.runtime.LocalActivityInvoker;
import dev.durable.workflow.internal.store.RunChain;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.support.RunMdc;

/**
 * Runs the attempts of one run's local activities for its workflow tasks on this node:
 * each on a virtual thread of its own, which the task waits for, so that the activity's
 * code is not workflow code (it may call other beans, block, use
 * {@link dev.durable.workflow.activity.ActivityContext}) and goes through the
 * interceptors and metrics of ordinary activities. A local attempt has no row, no
 * heartbeat that is kept and no task token: it completes when its method returns.
 */
final class LocalAttempts implements LocalActivityInvoker {

	/** Attempts of a local activity whose retry policy sets no maximum. */
	static final int DEFAULT_MAX_ATTEMPTS = 3;

	private final ActivityInvoker invoker;

	private final Payloads payloads;

	private final Clock clock;

	private final Listeners listeners;

	private final InlineRun slot;

	LocalAttempts(ActivityInvoker invoker, Payloads payloads, Clock clock, Listeners listeners, InlineRun slot) {
		this.invoker = invoker;
		this.payloads = payloads;
		this.clock = clock;
		this.listeners = listeners;
		this.slot = slot;
	}

	/**
	 * Runs attempts until one succeeds or the retry policy allows no other: at once one
	 * after another (the task's time stands still while it runs, so the backoff does not
	 * apply), at most {@link #DEFAULT_MAX_ATTEMPTS} when the policy sets no maximum.
	 */
	@Override
	public Outcome run(String workflowId, UUID runId, long seq, String activityType, byte[] input,
			ActivityOptions options, Instant now) {
		ActivityOptions bounded = bounded(options);
		for (int number = 1;; number++) {
			ActivityInfo info = new ActivityInfo(workflowId, runId, seq, activityType, number, now);
			FailureInfo failure;
			try {
				return new Outcome(attempt(info, activityType, input), null);
			}
			catch (Throwable ex) {
				failure = Failures.toInfo(ex, this.payloads.converter());
			}
			RetryDecision decision = RetryDecision.after(bounded, activityType, seq, number, now, failure, now);
			if (!decision.retries()) {
				return new Outcome(null, decision.finalFailure());
			}
		}
	}

	/**
	 * A local activity's attempts are bounded, and never paused: it runs inside its
	 * workflow task, which nobody could unpause ({@code pauseWhenExhausted} is ignored).
	 */
	private static ActivityOptions bounded(ActivityOptions options) {
		RetryPolicy policy = options.retryPolicy();
		if (policy.maximumAttempts() > 0 && !policy.pauseWhenExhausted()) {
			return options;
		}
		return options.toBuilder()
			.retryPolicy(policy.toBuilder()
				.maximumAttempts((policy.maximumAttempts() > 0) ? policy.maximumAttempts() : DEFAULT_MAX_ATTEMPTS)
				.pauseWhenExhausted(false)
				.build())
			.build();
	}

	/** One attempt, on a virtual thread of its own that the task waits for. */
	private byte[] attempt(ActivityInfo info, String activityType, byte[] input) throws Throwable {
		FutureTask<byte[]> attempt = new FutureTask<>(() -> invoke(info, activityType, input));
		Thread.ofVirtual().name("durable-local-activity").start(attempt);
		try {
			return attempt.get();
		}
		catch (ExecutionException ex) {
			throw ex.getCause();
		}
	}

	private byte[] invoke(ActivityInfo info, String activityType, byte[] input) throws Exception {
		ActivityAttempt attempt = new ActivityAttempt(info, null, this.payloads, (details) -> {
		}, this.clock, () -> {
			throw new IllegalStateException(
					"Local activity " + activityType + " has no task token: it completes when its method returns");
		});
		RunMdc mdc = RunMdc.activity(info.workflowId(), info.runId(), ActivityExecutor.workflowType(this.slot),
				activityType, info.activityId(), info.attempt());
		attempt.bind();
		try {
			Object result = this.listeners.activity(info, Duration.ZERO, () -> RunChain.headers(this.slot.chain()),
					() -> this.invoker.call(activityType, input));
			return this.invoker.encodeResult(activityType, result);
		}
		finally {
			attempt.unbind();
			mdc.close();
		}
	}

}
