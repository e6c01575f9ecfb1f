package dev.durable.workflow.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.durable.workflow.testsupport.EngineHooks;

/**
 * What {@link WorkflowEngine.Builder} collects of the application code around the
 * engine's work: listeners that observe it, interceptors that wrap it, and the test
 * seams.
 */
final class EngineExtensions {

	private final List<WorkflowEngineListener> listeners = new ArrayList<>();

	private final List<WorkflowInterceptor> interceptors = new ArrayList<>();

	private EngineHooks hooks = EngineHooks.NONE;

	void listener(WorkflowEngineListener listener) {
		this.listeners.add(Objects.requireNonNull(listener, "listener"));
	}

	void interceptor(WorkflowInterceptor interceptor) {
		this.interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
	}

	void hooks(EngineHooks hooks) {
		this.hooks = Objects.requireNonNull(hooks, "hooks");
	}

	EngineHooks hooks() {
		return this.hooks;
	}

	List<WorkflowEngineListener> listeners() {
		return List.copyOf(this.listeners);
	}

	List<WorkflowInterceptor> interceptors() {
		return List.copyOf(this.interceptors);
	}

}
