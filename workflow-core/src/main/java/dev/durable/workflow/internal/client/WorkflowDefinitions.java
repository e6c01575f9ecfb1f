package dev.durable.workflow.internal.client;

import java.io.Serializable;
import java.lang.reflect.Method;

import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.internal.registry.WorkflowDefinition;

/**
 * Workflow definitions by method reference or class, read once per class (reflection is
 * not free). A {@link ClassValue} keeps each definition with its class, so a class loader
 * that is dropped (a DevTools restart) is not pinned by this cache.
 */
public final class WorkflowDefinitions {

	private static final ClassValue<WorkflowDefinition> DEFINITIONS = new ClassValue<>() {

		@Override
		protected WorkflowDefinition computeValue(Class<?> workflowClass) {
			return WorkflowDefinition.of(workflowClass);
		}

	};

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
		return DEFINITIONS.get(workflowClass);
	}

}
