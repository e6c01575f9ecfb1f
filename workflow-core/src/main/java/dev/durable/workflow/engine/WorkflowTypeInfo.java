package dev.durable.workflow.engine;

import java.lang.reflect.Type;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.Signal;
import dev.durable.workflow.payload.EncodedValue;

/**
 * A workflow type registered on this node, as tools built on the engine (the REST API,
 * the dashboard) need it: its name, payload types and message handlers.
 *
 * @param name the type name
 * @param workflowClass the {@code @Workflow} class
 * @param inputType the run method's parameter type, or {@code null} when it takes none
 * @param resultType the run method's return type
 * @param handlers the named and dynamic signal, query and update handlers
 * @param receives the signal names declared for {@code Workflows.receive} (by
 * {@code @Workflow(receives)} or a {@link Signal} field), in declaration order
 */
public record WorkflowTypeInfo(String name, Class<?> workflowClass, @Nullable Type inputType, Type resultType,
		List<Handler> handlers, List<Receive> receives) {

	public WorkflowTypeInfo {
		handlers = List.copyOf(handlers);
		receives = List.copyOf(receives);
	}

	/** A type without declared receive names. */
	public WorkflowTypeInfo(String name, Class<?> workflowClass, @Nullable Type inputType, Type resultType,
			List<Handler> handlers) {
		this(name, workflowClass, inputType, resultType, handlers, List.of());
	}

	/**
	 * Whether a client may send a signal of this name: a named or dynamic signal handler
	 * takes it, or it is declared for {@code Workflows.receive}. Other names are rejected
	 * with {@code UnknownHandlerException}.
	 */
	public boolean acceptsSignal(String signalName) {
		return handler(HandlerKind.SIGNAL, signalName).isPresent() || receive(signalName).isPresent();
	}

	/** The declared receive name of this name, if any. */
	public Optional<Receive> receive(String signalName) {
		return this.receives.stream().filter((r) -> r.name().equals(signalName)).findFirst();
	}

	/**
	 * The handlers of one kind with a name (not the dynamic one), in declaration order.
	 */
	public List<Handler> named(HandlerKind kind) {
		return this.handlers.stream().filter((h) -> h.kind() == kind && !h.dynamic()).toList();
	}

	/**
	 * Whether a dynamic handler of the kind takes the messages no named handler matches.
	 */
	public boolean hasDynamic(HandlerKind kind) {
		return this.handlers.stream().anyMatch((h) -> h.kind() == kind && h.dynamic());
	}

	/**
	 * The handler a message of this kind and name goes to: the named one, else the
	 * dynamic one. Empty when there is none; a signal without handler waits for
	 * {@code Workflows.receive} when its name is {@linkplain #receive(String) declared}
	 * (then even when a dynamic handler exists).
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
	 * @param payloadType the parameter type, {@code null} when it takes none;
	 * {@link EncodedValue} for a dynamic handler
	 * @param dynamic whether it takes every message of its kind that no named handler
	 * matches
	 * @param resultType what a query or update handler returns, {@code null} for a signal
	 * handler and a handler returning {@code void}
	 */
	public record Handler(HandlerKind kind, @Nullable String name, @Nullable Type payloadType, boolean dynamic,
			@Nullable Type resultType) {

		/**
		 * A handler whose result type is not known (a signal handler, or one returning
		 * nothing).
		 */
		public Handler(HandlerKind kind, @Nullable String name, @Nullable Type payloadType, boolean dynamic) {
			this(kind, name, payloadType, dynamic, null);
		}

	}

	/**
	 * A signal name declared for {@code Workflows.receive}.
	 *
	 * @param name the signal name
	 * @param payloadType the payload type of a {@link Signal} field; {@code null} for a
	 * name of {@code @Workflow(receives)}, whose payload the receiving call types
	 */
	public record Receive(String name, @Nullable Type payloadType) {
	}

}
