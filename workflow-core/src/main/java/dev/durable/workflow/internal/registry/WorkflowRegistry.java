package dev.durable.workflow.internal.registry;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The workflow types this node knows, by type name and by class. */
public final class WorkflowRegistry {

	private final Map<String, WorkflowDefinition> byName = new LinkedHashMap<>();

	private final Map<Class<?>, WorkflowDefinition> byClass = new LinkedHashMap<>();

	private final List<Class<? extends Throwable>> failWorkflowExceptionTypes;

	/** A registry without engine-wide fail-workflow exception types. */
	public WorkflowRegistry() {
		this(List.of());
	}

	/** @param failWorkflowExceptionTypes the engine's, added to each workflow's own */
	public WorkflowRegistry(List<Class<? extends Throwable>> failWorkflowExceptionTypes) {
		this.failWorkflowExceptionTypes = List.copyOf(failWorkflowExceptionTypes);
	}

	public synchronized WorkflowDefinition register(Class<?> workflowClass) {
		WorkflowDefinition definition = WorkflowDefinition.of(workflowClass, this.failWorkflowExceptionTypes);
		WorkflowDefinition existing = this.byName.get(definition.typeName());
		if (existing != null && existing.workflowClass() != workflowClass) {
			throw new IllegalArgumentException("Workflow type '" + definition.typeName() + "' is declared by both "
					+ existing.workflowClass().getName() + " and " + workflowClass.getName());
		}
		this.byName.put(definition.typeName(), definition);
		this.byClass.put(workflowClass, definition);
		return definition;
	}

	public synchronized WorkflowDefinition find(String typeName) {
		return this.byName.get(typeName);
	}

	public synchronized WorkflowDefinition find(Class<?> workflowClass) {
		return this.byClass.get(workflowClass);
	}

	public synchronized Collection<WorkflowDefinition> all() {
		return List.copyOf(this.byName.values());
	}

}
