package dev.durable.workflow.internal.runtime;

/** The "inside workflow code" marker: a plain (non-inheritable) thread local. */
public final class WorkflowThread {

	private static final ThreadLocal<Binding> CURRENT = new ThreadLocal<>();

	private WorkflowThread() {
	}

	record Binding(WorkflowRunner runner, Coroutine coroutine) {
	}

	static void bind(WorkflowRunner runner, Coroutine coroutine) {
		CURRENT.set(new Binding(runner, coroutine));
	}

	static void unbind() {
		CURRENT.remove();
	}

	/** Whether the calling thread runs workflow code. */
	public static boolean isWorkflowThread() {
		return CURRENT.get() != null;
	}

	static Binding binding() {
		Binding binding = CURRENT.get();
		if (binding == null) {
			throw new IllegalStateException("Workflows.* may only be called from workflow code");
		}
		return binding;
	}

	/** The runner of the workflow code on this thread. */
	public static WorkflowRunner runner() {
		return binding().runner();
	}

	/** What the workflow code on this thread calls ({@code Workflows.*}). */
	public static WorkflowContext context() {
		return binding().runner().context();
	}

	static Coroutine coroutine() {
		Coroutine coroutine = binding().coroutine();
		if (coroutine == null) {
			throw new IllegalStateException(
					"Blocking calls are not allowed in queries, update validators, @WorkflowInit,"
							+ " promise callbacks and await conditions");
		}
		return coroutine;
	}

}
