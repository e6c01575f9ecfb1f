package dev.durable.workflow.internal.client;

import java.io.Serializable;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.internal.registry.WorkflowDefinition;

/**
 * Workflow definitions by method reference or class, read once per class (reflection is
 * not free).
 */
public final class WorkflowDefinitions {

	private static final Map<Class<?>, WorkflowDefinition> DEFINITIONS = new ConcurrentHashMap<>();

	private WorkflowDefinitions() {
	}

	public static WorkflowDefinition definition(Serializable reference) {
		Method method = MethodReferences.resolve(reference);
		if (!method.isAnnotationPresent(WorkflowRun.class)) {
			throw new IllegalArgumentException(method + " is not a @WorkflowRun method");
		}
		return of(method.getDeclaringClass());
	}

	public static WorkflowDefinition of(Class<?> workflowClass) {
		return DEFINITIONS.computeIfAbsent(workflowClass, WorkflowDefinition::of);
	}

}
