package dev.durable.workflow.internal.runtime;

import java.lang.reflect.Type;
import java.time.Instant;

import dev.durable.workflow.ActivityInfo;
import dev.durable.workflow.ActivityOptions;
import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.internal.activity.RetryDecision;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.support.Payloads;

/**
 * Local activities: run inside the workflow task that calls them, their outcome recorded as a
 * {@code LOCAL_ACTIVITY} command that commits with the task, so that several in a row cost the
 * task's one commit. On replay the recorded outcome is returned and the activity does not run.
 * The weaker guarantee: until the task commits, nothing of them is durable, and a task that does
 * not commit (a crash, a lost run) runs them again. Failed attempts retry at once within the task,
 * up to the retry policy's maximum ({@link #DEFAULT_MAX_ATTEMPTS} when it sets none); the policy's
 * backoff does not apply (a local activity that should wait between attempts belongs in an
 * ordinary one).
 */
final class LocalActivities {

	/** Attempts of a local activity whose retry policy sets no maximum. */
	static final int DEFAULT_MAX_ATTEMPTS = 3;

	private final CommandRecorder commands;

	private final Payloads payloads;

	private final RunIdentity identity;

	private final LocalActivityInvoker invoker;

	LocalActivities(CommandRecorder commands, Payloads payloads, RunIdentity identity, LocalActivityInvoker invoker) {
		this.commands = commands;
		this.payloads = payloads;
		this.identity = identity;
		this.invoker = invoker;
	}

	/** Runs (or, on replay, reads back) the local activity and returns its result or throws its failure. */
	Object execute(long seq, String activityType, byte[] args, Type resultType, ActivityOptions options, Instant now) {
		this.commands.checkNotReadOnly("run local activities");
		Event recorded = this.commands.isReplaying() ? recorded(Event.localActivity(seq, activityType, null, null))
				: this.commands.emit(run(seq, activityType, args, options, now));
		if (recorded.failure() != null) {
			throw Failures.toException(recorded.failure(), this.payloads.converter());
		}
		return this.payloads.decode(recorded.payload(), resultType, "the result of local activity " + activityType);
	}

	/** On replay: the recorded outcome, or a non-determinism failure when history holds something else. */
	private Event recorded(Event issued) {
		Event next = this.commands.peekExpected();
		if (next != null && next.sameCommand(issued)) {
			this.commands.acceptExpected();
			return next;
		}
		return this.commands.emit(issued);
	}

	private Event run(long seq, String activityType, byte[] args, ActivityOptions options, Instant now) {
		ActivityOptions bounded = bounded(options);
		for (int attempt = 1;; attempt++) {
			FailureInfo failure;
			try {
				ActivityInfo info = new ActivityInfo(this.identity.workflowId(), this.identity.runId(), seq, activityType,
						attempt, now);
				return Event.localActivity(seq, activityType, this.invoker.attempt(info, activityType, args), null);
			}
			catch (Throwable ex) {
				failure = Failures.toInfo(ex, this.payloads.converter());
			}
			// the task's time stands still while it runs: attempts are back to back
			RetryDecision decision = RetryDecision.after(bounded, activityType, seq, attempt, now, failure, now);
			if (!decision.retries()) {
				return Event.localActivity(seq, activityType, null, decision.finalFailure());
			}
		}
	}

	private static ActivityOptions bounded(ActivityOptions options) {
		RetryPolicy policy = options.retryPolicy();
		if (policy.maximumAttempts() > 0) {
			return options;
		}
		return options.toBuilder().retryPolicy(policy.toBuilder().maximumAttempts(DEFAULT_MAX_ATTEMPTS).build()).build();
	}

}
