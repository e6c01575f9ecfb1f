package dev.durable.workflow.client;

import java.util.UUID;

import dev.durable.workflow.WorkflowException;

/** A start was refused by the id reuse or conflict policy. */
public class WorkflowAlreadyStartedException extends WorkflowException {

	private final String workflowId;

	private final UUID existingRunId;

	public WorkflowAlreadyStartedException(String message, String workflowId, UUID existingRunId) {
		super(message);
		this.workflowId = workflowId;
		this.existingRunId = existingRunId;
	}

	public String getWorkflowId() {
		return this.workflowId;
	}

	/** The run that blocks the start. */
	public UUID getExistingRunId() {
		return this.existingRunId;
	}

}
