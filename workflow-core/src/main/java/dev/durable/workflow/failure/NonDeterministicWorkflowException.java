package dev.durable.workflow.failure;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.Workflows;

/**
 * Workflow code did not issue the commands its recorded history holds. The workflow task
 * fails and is retried with backoff; the run stays open and visible with this reason
 * until the code is fixed (or versioned with {@link Workflows#getVersion}).
 */
public class NonDeterministicWorkflowException extends WorkflowException {

	private final int workflowTask;

	private final @Nullable String recordedCommand;

	private final @Nullable String issuedCommand;

	public NonDeterministicWorkflowException(String message) {
		this(message, 0, null, null);
	}

	/**
	 * @param message the message
	 * @param workflowTask the workflow task (from 1) whose commands differ, or 0 when
	 * unknown
	 * @param recordedCommand the command history holds there, or {@code null} when it
	 * holds none
	 * @param issuedCommand the command the code issued instead, or {@code null} when it
	 * issued none
	 */
	public NonDeterministicWorkflowException(String message, int workflowTask, @Nullable String recordedCommand,
			@Nullable String issuedCommand) {
		super(message);
		this.workflowTask = workflowTask;
		this.recordedCommand = recordedCommand;
		this.issuedCommand = issuedCommand;
	}

	/** The workflow task (from 1) whose commands differ, or 0 when unknown. */
	public int workflowTask() {
		return this.workflowTask;
	}

	/**
	 * The command recorded in history where the code differed (e.g.
	 * {@code TIMER_STARTED#2}), or {@code null}.
	 */
	public @Nullable String recordedCommand() {
		return this.recordedCommand;
	}

	/**
	 * The command the code issued instead (e.g. {@code ACTIVITY_SCHEDULED#2(greet)}), or
	 * {@code null}.
	 */
	public @Nullable String issuedCommand() {
		return this.issuedCommand;
	}

}
