package dev.durable.workflow.client;

/** The status of a run. */
public enum WorkflowStatus {

	RUNNING, COMPLETED, FAILED, CANCELED, TERMINATED, CONTINUED_AS_NEW, TIMED_OUT;

	public boolean isClosed() {
		return this != RUNNING;
	}

}
