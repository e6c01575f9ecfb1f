package dev.durable.workflow.internal.client;

import java.io.Serializable;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.internal.registry.WorkflowDefinition;

/** Resolves the workflow a child start names by method reference (cached per class). */
public final class ChildWorkflows {

	private static final Map<Class<?>, WorkflowDefinition> DEFINITIONS = new ConcurrentHashMap<>();

	private ChildWorkflows() {
	}

	public static WorkflowDefinition definition(Serializable reference) {
		Method method = MethodReferences.resolve(reference);
		if (!method.isAnnotationPresent(WorkflowRun.class)) {
			throw new IllegalArgumentException(method + " is not a @WorkflowRun method");
		}
		return DEFINITIONS.computeIfAbsent(method.getDeclaringClass(), WorkflowDefinition::of);
	}

}
