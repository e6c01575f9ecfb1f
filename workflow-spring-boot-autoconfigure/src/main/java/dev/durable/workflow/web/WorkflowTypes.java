package dev.durable.workflow.web;

import java.lang.reflect.Type;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.WorkflowEngine;
import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.internal.registry.MessageHandlers;
import dev.durable.workflow.internal.registry.MessageHandlers.Kind;
import dev.durable.workflow.internal.registry.WorkflowDefinition;

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
		return this.engine.internal()
			.workflows()
			.all()
			.stream()
			.sorted(Comparator.comparing(WorkflowDefinition::typeName))
			.map((d) -> new TypeInfo(d.typeName(), names(d, Kind.SIGNAL), names(d, Kind.QUERY), names(d, Kind.UPDATE),
					java.util.Arrays.stream(Kind.values())
						.filter((k) -> d.handlers().hasDynamic(k))
						.map((k) -> k.name().toLowerCase(java.util.Locale.ROOT))
						.toList()))
			.toList();
	}

	private static List<String> names(WorkflowDefinition definition, Kind kind) {
		return List.copyOf(new TreeSet<>(definition.handlers().names(kind)));
	}

	WorkflowDefinition definition(@Nullable String type) {
		if (type == null || type.isBlank()) {
			throw new dev.durable.workflow.PayloadException("The request names no workflow \"type\"", false, null);
		}
		WorkflowDefinition definition = this.engine.internal().workflows().find(type);
		if (definition == null) {
			throw new UnknownWorkflowTypeException("No workflow type '" + type + "' is registered; known types: "
					+ all().stream().map(TypeInfo::type).toList());
		}
		return definition;
	}

	/**
	 * The workflow type of a run (the latest of the workflow id, or the pinned one): one read of
	 * the run row, not a whole description.
	 * @throws WorkflowNotFoundException when there is no such run
	 */
	String typeOf(String workflowId, java.util.@Nullable UUID runId) {
		var runs = this.engine.internal().runs();
		return ((runId != null) ? runs.find(runId)
				: runs.findLatest(this.engine.internal().config().namespace(), workflowId))
			.map(dev.durable.workflow.internal.store.RunRow::workflowType)
			.orElseThrow(() -> new WorkflowNotFoundException("No workflow with id '" + workflowId + "'"
					+ ((runId != null) ? " and run id " + runId : "")));
	}

	/**
	 * The payload type of a named handler: its parameter type, {@code Object} for a dynamic one
	 * or (signals only) a signal without a handler, which waits for {@code Workflows.receive}.
	 */
	Type payloadType(String workflowType, Kind kind, String name) {
		WorkflowDefinition definition = definition(workflowType);
		MessageHandlers.Handler handler = definition.handlers().find(kind, name);
		if (handler != null && !handler.dynamic()) {
			return handler.payloadType();
		}
		if (handler != null || kind == Kind.SIGNAL) {
			return Object.class;
		}
		throw new UnknownHandlerException("Workflow type " + workflowType + " has no " + kind.name().toLowerCase(
				java.util.Locale.ROOT) + " named '" + name + "'; it has " + names(definition, kind));
	}

}
