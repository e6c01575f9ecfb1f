package dev.durable.workflow.internal.runtime;

import java.lang.reflect.Type;
import java.time.Instant;

import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.LocalActivity;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.support.Payloads;

/**
 * Local activities: run inside the workflow task that calls them, their outcome recorded
 * as a {@code LOCAL_ACTIVITY} command that commits with the task, so that several in a
 * row cost the task's one commit. On replay the recorded outcome is returned and the
 * activity does not run. The weaker guarantee: until the task commits, nothing of them is
 * durable, and a task that does not commit (a crash, a lost run) runs them again. The
 * worker runs the attempts (see {@link LocalActivityInvoker}).
 */
final class LocalActivities {

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

	/**
	 * Runs (or, on replay, reads back) the local activity and returns its result or
	 * throws its failure.
	 */
	Object execute(long seq, String activityType, byte[] args, Type resultType, ActivityOptions options, Instant now) {
		this.commands.checkNotReadOnly("run local activities");
		LocalActivity recorded = this.commands.isReplaying()
				? recorded(Event.localActivity(seq, activityType, null, null))
				: this.commands.emit(run(seq, activityType, args, options, now));
		if (recorded.failure() != null) {
			throw Failures.toException(recorded.failure(), this.payloads.converter());
		}
		return this.payloads.decode(recorded.result(), resultType, "the result of local activity " + activityType);
	}

	/**
	 * On replay: the recorded outcome, or a non-determinism failure when history holds
	 * something else.
	 */
	private LocalActivity recorded(LocalActivity issued) {
		if (this.commands.peekExpected() instanceof LocalActivity next && next.sameCommand(issued)) {
			this.commands.acceptExpected();
			return next;
		}
		return this.commands.emit(issued);
	}

	private LocalActivity run(long seq, String activityType, byte[] args, ActivityOptions options, Instant now) {
		LocalActivityInvoker.Outcome outcome = this.invoker.run(this.identity.workflowId(), this.identity.runId(), seq,
				activityType, args, options, now);
		return Event.localActivity(seq, activityType, outcome.result(), outcome.failure());
	}

}
