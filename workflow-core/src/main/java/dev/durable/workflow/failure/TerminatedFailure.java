package dev.durable.workflow.failure;

import org.jspecify.annotations.Nullable;

/** The run was terminated: no workflow code ran to close it. */
public class TerminatedFailure extends WorkflowException {

	/**
	 * @param message the termination reason, or {@code null} when none was given
	 */
	public TerminatedFailure(@Nullable String message) {
		super(message);
	}

}
