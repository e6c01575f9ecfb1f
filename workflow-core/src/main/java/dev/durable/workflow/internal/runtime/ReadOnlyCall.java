package dev.durable.workflow.internal.runtime;

import java.lang.reflect.InvocationTargetException;

/**
 * Code that runs on the calling thread, bound to a run, and must not block or issue
 * commands: {@code @WorkflowInit}, update validators, queries.
 */
@FunctionalInterface
interface ReadOnlyCall<T> {

	T call() throws InvocationTargetException, IllegalAccessException;

	static <T> T run(WorkflowRunner runner, CommandRecorder commands, ReadOnlyCall<T> call)
			throws InvocationTargetException {
		boolean bound = WorkflowThread.isWorkflowThread();
		if (!bound) {
			WorkflowThread.bind(runner, null);
		}
		commands.setReadOnly(true);
		try {
			return call.call();
		}
		catch (IllegalAccessException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			commands.setReadOnly(false);
			if (!bound) {
				WorkflowThread.unbind();
			}
		}
	}

}
