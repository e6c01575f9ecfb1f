package dev.durable.workflow.web;

import java.lang.reflect.Type;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.engine.HandlerKind;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.engine.WorkflowTypeInfo;
import dev.durable.workflow.failure.PayloadException;

/**
 * The registered workflow types and the parameter types of their run methods and
 * handlers.
 */
public final class WorkflowTypes {

	private final WorkflowEngine engine;

	public WorkflowTypes(WorkflowEngine engine) {
		this.engine = engine;
	}

	/**
	 * A registered type as the REST API lists it.
	 *
	 * @param type the type name
	 * @param signals signal handler names
	 * @param queries query handler names
	 * @param updates update handler names
	 * @param dynamicHandlers kinds with a dynamic handler (any name accepted)
	 * @param receives signal names declared for {@code Workflows.receive}, also accepted
	 * @param payloads the payload of each named signal, query and update handler, for
	 * people who type one (the dashboard)
	 */
	record TypeInfo(String type, List<String> signals, List<String> queries, List<String> updates,
			List<String> dynamicHandlers, List<Receive> receives, List<Payload> payloads) {
	}

	/**
	 * The payload a named handler takes.
	 *
	 * @param kind {@code signal}, {@code query} or {@code update}
	 * @param name the handler's name
	 * @param payloadType the payload's Java type, without package names ({@code none}
	 * when the handler takes none)
	 * @param example a JSON skeleton of such a payload, or {@code null} when none can be
	 * told
	 */
	record Payload(String kind, String name, String payloadType, @Nullable Object example) {
	}

	/**
	 * A signal name declared for {@code Workflows.receive}.
	 *
	 * @param name the signal name
	 * @param payloadType the declared payload type's name, or {@code null} when the
	 * receiving call types it ({@code @Workflow(receives)})
	 */
	record Receive(String name, @Nullable String payloadType) {
	}

	List<TypeInfo> all() {
		return this.engine.workflowTypes()
			.stream()
			.map((d) -> new TypeInfo(d.name(), names(d, HandlerKind.SIGNAL), names(d, HandlerKind.QUERY),
					names(d, HandlerKind.UPDATE),
					java.util.Arrays.stream(HandlerKind.values())
						.filter(d::hasDynamic)
						.map((k) -> k.name().toLowerCase(Locale.ROOT))
						.toList(),
					d.receives()
						.stream()
						.map((r) -> new Receive(r.name(),
								(r.payloadType() != null) ? r.payloadType().getTypeName() : null))
						.toList(),
					payloads(d)))
			.toList();
	}

	private static List<Payload> payloads(WorkflowTypeInfo type) {
		List<Payload> payloads = new java.util.ArrayList<>();
		for (HandlerKind kind : List.of(HandlerKind.SIGNAL, HandlerKind.QUERY, HandlerKind.UPDATE)) {
			type.named(kind)
				.stream()
				.filter((h) -> h.name() != null)
				.sorted(java.util.Comparator.comparing(WorkflowTypeInfo.Handler::name))
				.forEach((h) -> payloads.add(new Payload(kind.name().toLowerCase(Locale.ROOT), h.name(),
						PayloadExamples.name(h.payloadType()), PayloadExamples.example(h.payloadType()))));
		}
		for (WorkflowTypeInfo.Receive receive : type.receives()) {
			payloads.add(new Payload("signal", receive.name(), PayloadExamples.name(receive.payloadType()),
					PayloadExamples.example(receive.payloadType())));
		}
		return payloads;
	}

	private static List<String> names(WorkflowTypeInfo type, HandlerKind kind) {
		return List.copyOf(new TreeSet<>(type.named(kind).stream().map(WorkflowTypeInfo.Handler::name).toList()));
	}

	WorkflowTypeInfo definition(@Nullable String type) {
		if (type == null || type.isBlank()) {
			throw new PayloadException("The request names no workflow \"type\"", false, null);
		}
		return this.engine.workflowType(type)
			.orElseThrow(() -> new UnknownWorkflowTypeException("No workflow type '" + type
					+ "' is registered; known types: " + all().stream().map(TypeInfo::type).toList()));
	}

	/**
	 * The payload type of a named handler: its parameter type, {@code Object} for a
	 * dynamic one; for a signal declared for {@code Workflows.receive}, its declared type
	 * ({@code Object} when untyped).
	 * @throws UnknownHandlerException when the type takes no message of that kind and
	 * name
	 */
	Type payloadType(String workflowType, HandlerKind kind, String name) {
		WorkflowTypeInfo definition = definition(workflowType);
		WorkflowTypeInfo.Handler handler = definition.handler(kind, name).orElse(null);
		if (handler != null && !handler.dynamic()) {
			return handler.payloadType();
		}
		WorkflowTypeInfo.Receive receive = (kind == HandlerKind.SIGNAL) ? definition.receive(name).orElse(null) : null;
		if (receive != null) {
			return (receive.payloadType() != null) ? receive.payloadType() : Object.class;
		}
		if (handler != null) {
			return Object.class;
		}
		List<String> known = new java.util.ArrayList<>(names(definition, kind));
		if (kind == HandlerKind.SIGNAL) {
			definition.receives().forEach((r) -> known.add(r.name()));
		}
		throw new UnknownHandlerException("Workflow type " + workflowType + " has no "
				+ kind.name().toLowerCase(Locale.ROOT) + " named '" + name + "'; it has " + known);
	}

}
