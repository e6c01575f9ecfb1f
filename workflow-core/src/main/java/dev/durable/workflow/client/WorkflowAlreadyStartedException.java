package dev.durable.workflow.client;

import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.failure.WorkflowException;

/** A start was refused by the id reuse or conflict policy. */
public class WorkflowAlreadyStartedException extends WorkflowException {

	private final String workflowId;

	private final @Nullable UUID existingRunId;

	/**
	 * @param message the message
	 * @param workflowId the workflow id
	 * @param existingRunId the run that blocks the start, or {@code null} when it is not
	 * known
	 */
	public WorkflowAlreadyStartedException(String message, String workflowId, @Nullable UUID existingRunId) {
		super(message);
		this.workflowId = workflowId;
		this.existingRunId = existingRunId;
	}

	public String getWorkflowId() {
		return this.workflowId;
	}

	/** The run that blocks the start, or {@code null} when it is not known. */
	public @Nullable UUID getExistingRunId() {
		return this.existingRunId;
	}

}
