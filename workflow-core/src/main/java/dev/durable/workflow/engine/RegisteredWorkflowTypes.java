package dev.durable.workflow.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.internal.registry.MessageHandlers;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.payload.EncodedValue;

/**
 * The public view of the workflow types registered on a node: the application's, never
 * the engine's own ({@link WorkflowRegistry#INTERNAL_TYPES}), which run all the same.
 */
final class RegisteredWorkflowTypes {

	private final WorkflowRegistry registry;

	RegisteredWorkflowTypes(WorkflowRegistry registry) {
		this.registry = registry;
	}

	List<WorkflowTypeInfo> all() {
		return this.registry.all()
			.stream()
			.filter((definition) -> !WorkflowRegistry.isInternal(definition.typeName()))
			.map(RegisteredWorkflowTypes::info)
			.sorted(Comparator.comparing(WorkflowTypeInfo::name))
			.toList();
	}

	Optional<WorkflowTypeInfo> find(String name) {
		if (WorkflowRegistry.isInternal(name)) {
			return Optional.empty(); // started by the engine only, never by name from a
										// tool
		}
		WorkflowDefinition definition = this.registry.find(name);
		if (definition != null && definition.isDynamic() && !definition.typeName().equals(name)) {
			// the dynamic workflow, under the name asked for: its input is taken as sent
			// (any JSON value)
			WorkflowTypeInfo dynamic = info(definition);
			return Optional.of(new WorkflowTypeInfo(name, dynamic.workflowClass(), Object.class, dynamic.resultType(),
					dynamic.handlers(), dynamic.receives()));
		}
		return Optional.ofNullable(definition).map(RegisteredWorkflowTypes::info);
	}

	private static WorkflowTypeInfo info(WorkflowDefinition definition) {
		List<WorkflowTypeInfo.Handler> handlers = new ArrayList<>();
		MessageHandlers all = definition.handlers();
		for (HandlerKind kind : HandlerKind.values()) {
			for (String name : all.names(kind)) {
				MessageHandlers.Handler handler = all.find(kind, name);
				handlers.add(new WorkflowTypeInfo.Handler(kind, name, handler.payloadType(), false,
						resultType(kind, handler)));
			}
			if (all.hasDynamic(kind)) {
				handlers.add(new WorkflowTypeInfo.Handler(kind, null, EncodedValue.class, true));
			}
		}
		List<WorkflowTypeInfo.Receive> receives = definition.receives()
			.names()
			.stream()
			.map((name) -> new WorkflowTypeInfo.Receive(name, definition.receives().payloadType(name)))
			.toList();
		return new WorkflowTypeInfo(definition.typeName(), definition.workflowClass(), definition.inputType(),
				definition.resultType(), handlers, receives);
	}

	/** What a query or update handler returns; signals return nothing a caller sees. */
	private static java.lang.reflect.@Nullable Type resultType(HandlerKind kind, MessageHandlers.Handler handler) {
		java.lang.reflect.Type type = handler.method().getGenericReturnType();
		return (kind == HandlerKind.SIGNAL || type == void.class || type == Void.class) ? null : type;
	}

}
