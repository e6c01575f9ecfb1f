package dev.durable.workflow.internal.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;

import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.EventType;

/**
 * The commands of the current workflow task. On a new task it records what the code
 * issues; on replay it matches each issued command against the recorded one, in order,
 * and turns the first difference into a {@link NonDeterministicWorkflowException} that
 * fails the task.
 */
final class CommandRecorder {

	private final UUID runId;

	private boolean replaying;

	private Deque<Event> expected = new ArrayDeque<>();

	private List<Event> produced = new ArrayList<>();

	private Event closeEvent;

	private RuntimeException fatal;

	CommandRecorder(UUID runId) {
		this.runId = runId;
	}

	private int replayedTask;

	void beginReplay(List<Event> recordedCommands, int taskSeq) {
		this.replayedTask = taskSeq;
		this.replaying = true;
		this.expected = new ArrayDeque<>(recordedCommands);
		this.produced = new ArrayList<>();
	}

	void beginNewTask() {
		this.replaying = false;
		this.expected = new ArrayDeque<>();
		this.produced = new ArrayList<>();
	}

	boolean isReplaying() {
		return this.replaying;
	}

	private boolean readOnly;

	/** In read-only mode (init, validators, queries) any command is an error. */
	void setReadOnly(boolean readOnly) {
		this.readOnly = readOnly;
	}

	/**
	 * Fails before any state changes when code in read-only mode tries to issue a
	 * command.
	 */
	void checkNotReadOnly(String what) {
		if (this.readOnly) {
			throw new IllegalStateException("Queries, update validators and @WorkflowInit cannot " + what
					+ ": they may only read and change workflow state");
		}
	}

	/**
	 * Records a command; on replay, checks it against history and returns the recorded
	 * event (of the command's own kind: commands match only commands of their type).
	 */
	@SuppressWarnings("unchecked")
	<E extends Event> E emit(E command) {
		if (this.readOnly) {
			throw new IllegalStateException("Queries, update validators and @WorkflowInit cannot block or issue "
					+ command.type() + ": they may only read and change workflow state");
		}
		this.produced.add(command);
		if (!this.replaying) {
			if (command.type().closesRun()) {
				this.closeEvent = command;
			}
			return command;
		}
		Event recorded = this.expected.poll();
		if (recorded == null || !recorded.sameCommand(command)) {
			throw failTask(new NonDeterministicWorkflowException(
					"Run " + this.runId + " issued " + command.describe() + " where its history holds "
							+ ((recorded != null) ? recorded.describe() : "nothing more in this task")
							+ ": the workflow code changed incompatibly; guard the change with Workflows.getVersion",
					this.replayedTask, (recorded != null) ? recorded.describe() : null, command.describe()));
		}
		if (recorded.type().closesRun()) {
			this.closeEvent = recorded;
		}
		return (E) recorded;
	}

	/**
	 * Records the close of a run whose cancellation was requested
	 * ({@code WORKFLOW_CANCELED}). On replay, a history that closed such a run as
	 * completed, failed or continued as new (recorded before a canceled run closed
	 * canceled whatever its main method did) keeps its recorded close, so that it still
	 * replays: the close is the last command of its task and nothing depends on it.
	 */
	Event emitCanceledClose(Event canceled) {
		Event recorded = this.replaying ? this.expected.peek() : null;
		if (recorded != null && (recorded.type() == EventType.WORKFLOW_COMPLETED
				|| recorded.type() == EventType.WORKFLOW_FAILED || recorded.type() == EventType.CONTINUED_AS_NEW)) {
			acceptExpected();
			this.closeEvent = recorded;
			return recorded;
		}
		return emit(canceled);
	}

	/** The next recorded command, without consuming it (replay only). */
	Event peekExpected() {
		return this.expected.peek();
	}

	/** Consumes the next recorded command as issued (replay only). */
	void acceptExpected() {
		this.produced.add(this.expected.poll());
	}

	/**
	 * Fails the task after the replayed code issued fewer commands than history holds.
	 */
	void checkAllMatched(int taskSeq) {
		if (!this.expected.isEmpty()) {
			throw failTask(new NonDeterministicWorkflowException(
					"Workflow task " + taskSeq + " of run " + this.runId + ": history holds "
							+ this.expected.peek().describe() + " but the workflow code did not issue it",
					taskSeq, this.expected.peek().describe(), null));
		}
	}

	/** Marks the task as failed (first failure wins) and returns the failure to throw. */
	RuntimeException failTask(RuntimeException failure) {
		if (this.fatal == null) {
			this.fatal = failure;
		}
		return failure;
	}

	RuntimeException fatal() {
		return this.fatal;
	}

	Event closeEvent() {
		return this.closeEvent;
	}

	List<Event> produced() {
		return List.copyOf(this.produced);
	}

	int producedCount() {
		return this.produced.size();
	}

}
