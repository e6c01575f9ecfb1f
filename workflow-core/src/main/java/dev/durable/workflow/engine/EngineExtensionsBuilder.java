package dev.durable.workflow.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.durable.workflow.testsupport.EngineHooks;

/**
 * The part of {@link WorkflowEngine.Builder} that adds application code around the
 * engine's work: listeners that observe it, interceptors that wrap it, and the test
 * seams.
 *
 * @param <B> the builder type
 */
abstract class EngineExtensionsBuilder<B extends EngineExtensionsBuilder<B>> extends NodeSettingsBuilder<B> {

	private final List<WorkflowEngineListener> listeners = new ArrayList<>();

	private final List<WorkflowInterceptor> interceptors = new ArrayList<>();

	private EngineHooks hooks = EngineHooks.NONE;

	EngineExtensionsBuilder() {
	}

	/**
	 * Adds a listener to what this node does (runs started and closed, workflow tasks,
	 * activity attempts), for metrics and tracing. Listeners are called in the order
	 * added.
	 */
	public final B listener(WorkflowEngineListener listener) {
		this.listeners.add(Objects.requireNonNull(listener, "listener"));
		return self();
	}

	/**
	 * Adds an interceptor around this engine's client calls, workflow tasks and activity
	 * attempts, with the headers it carries from a start to the run's work. The first
	 * added is the outermost.
	 */
	public final B interceptor(WorkflowInterceptor interceptor) {
		this.interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
		return self();
	}

	/** Test seams (see {@link EngineHooks}); not for applications. */
	public final B hooks(EngineHooks hooks) {
		this.hooks = Objects.requireNonNull(hooks, "hooks");
		return self();
	}

	final EngineHooks hooks() {
		return this.hooks;
	}

	final List<WorkflowEngineListener> listeners() {
		return List.copyOf(this.listeners);
	}

	final List<WorkflowInterceptor> interceptors() {
		return List.copyOf(this.interceptors);
	}

}
