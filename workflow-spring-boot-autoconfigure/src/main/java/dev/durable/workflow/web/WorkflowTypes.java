package dev.durable.workflow.web;

import java.lang.reflect.Type;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.HandlerKind;
import dev.durable.workflow.PayloadException;
import dev.durable.workflow.WorkflowEngine;
import dev.durable.workflow.WorkflowTypeInfo;
import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.UnknownWorkflowTypeException;

/** The registered workflow types and the parameter types of their run methods and handlers. */
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
	 */
	record TypeInfo(String type, List<String> signals, List<String> queries, List<String> updates,
			List<String> dynamicHandlers) {
	}

	List<TypeInfo> all() {
		return this.engine.workflowTypes()
			.stream()
			.map((d) -> new TypeInfo(d.name(), names(d, HandlerKind.SIGNAL), names(d, HandlerKind.QUERY),
					names(d, HandlerKind.UPDATE),
					java.util.Arrays.stream(HandlerKind.values())
						.filter(d::hasDynamic)
						.map((k) -> k.name().toLowerCase(Locale.ROOT))
						.toList()))
			.toList();
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
	 * The payload type of a named handler: its parameter type, {@code Object} for a dynamic one
	 * or (signals only) a signal without a handler, which waits for {@code Workflows.receive}.
	 */
	Type payloadType(String workflowType, HandlerKind kind, String name) {
		WorkflowTypeInfo definition = definition(workflowType);
		WorkflowTypeInfo.Handler handler = definition.handler(kind, name).orElse(null);
		if (handler != null && !handler.dynamic()) {
			return handler.payloadType();
		}
		if (handler != null || kind == HandlerKind.SIGNAL) {
			return Object.class;
		}
		throw new UnknownHandlerException("Workflow type " + workflowType + " has no " + kind.name().toLowerCase(
				Locale.ROOT) + " named '" + name + "'; it has " + names(definition, kind));
	}

}
