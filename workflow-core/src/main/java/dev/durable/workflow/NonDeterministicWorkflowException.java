package dev.durable.workflow;

/**
 * Workflow code did not issue the commands its recorded history holds. The workflow task fails
 * and is retried with backoff; the run stays open and visible with this reason until the code is
 * fixed (or versioned with {@link Workflows#getVersion}).
 */
public class NonDeterministicWorkflowException extends WorkflowException {

	public NonDeterministicWorkflowException(String message) {
		super(message);
	}

}
