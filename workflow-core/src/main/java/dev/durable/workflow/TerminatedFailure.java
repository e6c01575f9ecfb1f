package dev.durable.workflow;

/** The run was terminated: no workflow code ran to close it. */
public class TerminatedFailure extends WorkflowException {

	public TerminatedFailure(String message) {
		super(message);
	}

}
