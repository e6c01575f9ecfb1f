package dev.durable.workflow.internal.store;

import dev.durable.workflow.client.WorkflowStatus;

/**
 * A run's status as the {@code workflow_run.status} column stores it: the constant's name
 * is the stored text. Java code compares and binds these constants; SQL text keeps the
 * literals where a statement names a status itself.
 */
public enum RunStatus {

	RUNNING(WorkflowStatus.RUNNING), COMPLETED(WorkflowStatus.COMPLETED), FAILED(WorkflowStatus.FAILED),
	CANCELED(WorkflowStatus.CANCELED), TERMINATED(WorkflowStatus.TERMINATED),
	CONTINUED_AS_NEW(WorkflowStatus.CONTINUED_AS_NEW), TIMED_OUT(WorkflowStatus.TIMED_OUT);

	private final WorkflowStatus published;

	RunStatus(WorkflowStatus published) {
		this.published = published;
	}

	/** The status a stored value names ({@code null} for {@code null}). */
	public static RunStatus stored(String value) {
		return (value != null) ? valueOf(value) : null;
	}

	/** The value the status column stores ({@code null} for {@code null}). */
	public static String column(RunStatus status) {
		return (status != null) ? status.name() : null;
	}

	/** The stored status the public API's status names. */
	public static RunStatus of(WorkflowStatus status) {
		for (RunStatus stored : values()) {
			if (stored.published == status) {
				return stored;
			}
		}
		throw new IllegalArgumentException("No stored status for " + status);
	}

	/** The status as the public API reports it. */
	public WorkflowStatus published() {
		return this.published;
	}

	public boolean isOpen() {
		return this == RUNNING;
	}

}
