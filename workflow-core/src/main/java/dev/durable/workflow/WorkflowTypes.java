package dev.durable.workflow;

import java.util.ArrayList;
import java.util.List;

import dev.durable.workflow.internal.registry.MessageHandlers;
import dev.durable.workflow.internal.registry.WorkflowDefinition;

/** The public view of a registered workflow type. */
final class WorkflowTypes {

	private WorkflowTypes() {
	}

	static WorkflowTypeInfo info(WorkflowDefinition definition) {
		List<WorkflowTypeInfo.Handler> handlers = new ArrayList<>();
		MessageHandlers all = definition.handlers();
		for (HandlerKind kind : HandlerKind.values()) {
			for (String name : all.names(kind)) {
				MessageHandlers.Handler handler = all.find(kind, name);
				handlers.add(new WorkflowTypeInfo.Handler(kind, name, handler.payloadType(), false));
			}
			if (all.hasDynamic(kind)) {
				handlers.add(new WorkflowTypeInfo.Handler(kind, null, EncodedValue.class, true));
			}
		}
		return new WorkflowTypeInfo(definition.typeName(), definition.workflowClass(), definition.inputType(),
				definition.resultType(), handlers);
	}

}
