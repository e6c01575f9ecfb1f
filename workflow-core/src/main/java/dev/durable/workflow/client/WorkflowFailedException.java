package dev.durable.workflow.client;

import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.failure.WorkflowException;

/**
 * The run did not complete successfully: failed, canceled, terminated or timed out. The
 * cause is the failure as the workflow saw it ({@code ApplicationFailure},
 * {@code ActivityFailure}, {@code CanceledFailure}, {@code TerminatedFailure}, ...).
 */
public class WorkflowFailedException extends WorkflowException {

	private final String workflowId;

	private final UUID runId;

	private final WorkflowStatus status;

	/**
	 * @param workflowId the workflow id
	 * @param runId the run that closed
	 * @param status how it closed
	 * @param cause the failure as the workflow saw it, or {@code null} when none was
	 * recorded
	 */
	public WorkflowFailedException(String workflowId, UUID runId, WorkflowStatus status, @Nullable Throwable cause) {
		super("Workflow " + workflowId + " (run " + runId + ") " + status.name().toLowerCase()
				+ ((cause != null && cause.getMessage() != null) ? ": " + cause.getMessage() : ""), cause);
		this.workflowId = workflowId;
		this.runId = runId;
		this.status = status;
	}

	public String getWorkflowId() {
		return this.workflowId;
	}

	public UUID getRunId() {
		return this.runId;
	}

	public WorkflowStatus getStatus() {
		return this.status;
	}

}
