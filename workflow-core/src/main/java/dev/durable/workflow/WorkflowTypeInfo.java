package dev.durable.workflow;

import java.lang.reflect.Type;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.client.Functions;
import dev.durable.workflow.internal.client.WorkflowDefinitions;

/**
 * A workflow type registered on this node, as tools built on the engine (the REST API, the
 * dashboard) need it: its name, payload types and message handlers.
 *
 * @param name the type name
 * @param workflowClass the {@code @Workflow} class
 * @param inputType the run method's parameter type, or {@code null} when it takes none
 * @param resultType the run method's return type
 * @param handlers the named and dynamic signal, query and update handlers
 */
public record WorkflowTypeInfo(String name, Class<?> workflowClass, @Nullable Type inputType, Type resultType,
		List<Handler> handlers) {

	public WorkflowTypeInfo {
		handlers = List.copyOf(handlers);
	}

	/**
	 * The type name of the workflow whose {@code @WorkflowRun} method is referenced, such as
	 * {@code OrderWorkflow::run}: the {@code @Workflow} value, or the class's simple name.
	 * @throws IllegalArgumentException when the method is not a {@code @WorkflowRun} method
	 */
	public static String nameOf(Functions.Func1<?, ?, ?> runMethod) {
		return WorkflowDefinitions.definition(runMethod).typeName();
	}

	/** {@link #nameOf(Functions.Func1)} for a run method without parameter. */
	public static String nameOf(Functions.Func0<?, ?> runMethod) {
		return WorkflowDefinitions.definition(runMethod).typeName();
	}

	/** The handlers of one kind with a name (not the dynamic one), in declaration order. */
	public List<Handler> named(HandlerKind kind) {
		return this.handlers.stream().filter((h) -> h.kind() == kind && !h.dynamic()).toList();
	}

	/** Whether a dynamic handler of the kind takes the messages no named handler matches. */
	public boolean hasDynamic(HandlerKind kind) {
		return this.handlers.stream().anyMatch((h) -> h.kind() == kind && h.dynamic());
	}

	/**
	 * The handler a message of this kind and name goes to: the named one, else the dynamic one.
	 * Empty when there is none (a signal without handler still waits for {@code Workflows.receive}).
	 */
	public Optional<Handler> handler(HandlerKind kind, String messageName) {
		Optional<Handler> named = this.handlers.stream()
			.filter((h) -> h.kind() == kind && !h.dynamic() && h.name().equals(messageName))
			.findFirst();
		return named.isPresent() ? named
				: this.handlers.stream().filter((h) -> h.kind() == kind && h.dynamic()).findFirst();
	}

	/**
	 * One message handler.
	 *
	 * @param kind signal, query or update
	 * @param name the message name, or {@code null} for the dynamic handler
	 * @param payloadType the parameter type, {@code null} when it takes none; {@link EncodedValue}
	 * for a dynamic handler
	 * @param dynamic whether it takes every message of its kind that no named handler matches
	 */
	public record Handler(HandlerKind kind, @Nullable String name, @Nullable Type payloadType, boolean dynamic) {
	}

}
