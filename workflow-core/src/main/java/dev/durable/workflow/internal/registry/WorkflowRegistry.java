package dev.durable.workflow.internal.registry;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.durable.workflow.failure.InvalidWorkflowDefinitionException;

/** The workflow types this node knows, by type name and by class. */
public final class WorkflowRegistry {

	private final Map<String, WorkflowDefinition> byName = new LinkedHashMap<>();

	private final Map<Class<?>, WorkflowDefinition> byClass = new LinkedHashMap<>();

	/** The dynamic workflow: it runs every type name no other registered workflow has. */
	private WorkflowDefinition dynamic;

	private final List<Class<? extends Throwable>> failWorkflowExceptionTypes;

	/** A registry without engine-wide fail-workflow exception types. */
	public WorkflowRegistry() {
		this(List.of());
	}

	/**
	 * @param failWorkflowExceptionTypes the engine's, added to each workflow's own
	 */
	public WorkflowRegistry(List<Class<? extends Throwable>> failWorkflowExceptionTypes) {
		this.failWorkflowExceptionTypes = List.copyOf(failWorkflowExceptionTypes);
	}

	public synchronized WorkflowDefinition register(Class<?> workflowClass) {
		WorkflowDefinition definition = definition(workflowClass);
		WorkflowDefinition existing = this.byName.get(definition.typeName());
		if (existing != null && existing.workflowClass() != workflowClass) {
			throw new InvalidWorkflowDefinitionException(workflowClass,
					"Workflow type '" + definition.typeName() + "' is declared by both "
							+ existing.workflowClass().getName() + " and " + workflowClass.getName());
		}
		if (definition.isDynamic()) {
			if (this.dynamic != null && this.dynamic.workflowClass() != workflowClass) {
				throw new InvalidWorkflowDefinitionException(workflowClass,
						"Two dynamic workflows: " + this.dynamic.workflowClass().getName() + " and "
								+ workflowClass.getName() + "; a node has at most one");
			}
			this.dynamic = definition;
		}
		this.byName.put(definition.typeName(), definition);
		this.byClass.put(workflowClass, definition);
		return definition;
	}

	/**
	 * Validates a workflow class. The rules live with the definition, its handlers and
	 * payload types, which refuse a class with an {@link IllegalArgumentException}; here
	 * it becomes the public {@link InvalidWorkflowDefinitionException} naming the class,
	 * with the same message and the stack of the rule that refused it (so that no
	 * validation site has to know the type).
	 */
	private WorkflowDefinition definition(Class<?> workflowClass) {
		try {
			return WorkflowDefinition.of(workflowClass, this.failWorkflowExceptionTypes);
		}
		catch (InvalidWorkflowDefinitionException ex) {
			throw ex;
		}
		catch (IllegalArgumentException ex) {
			InvalidWorkflowDefinitionException invalid = new InvalidWorkflowDefinitionException(workflowClass,
					ex.getMessage(), ex.getCause());
			invalid.setStackTrace(ex.getStackTrace());
			throw invalid;
		}
	}

	/**
	 * The workflow of a type name: the one registered by that name, else the dynamic one,
	 * else {@code null}.
	 */
	public synchronized WorkflowDefinition find(String typeName) {
		WorkflowDefinition named = this.byName.get(typeName);
		return (named != null) ? named : this.dynamic;
	}

	/**
	 * The type names a node with these workflows serves, with {@link #ANY_TYPE} when one
	 * is dynamic.
	 */
	public synchronized java.util.Set<String> servedTypes() {
		java.util.Set<String> names = new java.util.LinkedHashSet<>(this.byName.keySet());
		if (this.dynamic != null) {
			names.add(ANY_TYPE);
		}
		return names;
	}

	/**
	 * The served type of a node with a dynamic workflow: it also claims runs of the types
	 * no live node serves by name.
	 */
	public static final String ANY_TYPE = "*";

	public synchronized WorkflowDefinition find(Class<?> workflowClass) {
		return this.byClass.get(workflowClass);
	}

	public synchronized Collection<WorkflowDefinition> all() {
		return List.copyOf(this.byName.values());
	}

	/**
	 * The engine's own workflow types: {@code durable-permit}, the permits of
	 * {@code WorkflowSemaphore}, and {@code durable-batch}, the runs that carry out batch
	 * operations. They run like any other type wherever workflows run, but are left out
	 * of every listing and message meant for people (the type listings, the known types
	 * of an error, the startup log, the nodes' served types in the stats), which name the
	 * application's types only.
	 */
	public static final Set<String> INTERNAL_TYPES = Set.of("durable-permit", "durable-batch");

	/** Whether a type name is one of the engine's own ({@link #INTERNAL_TYPES}). */
	public static boolean isInternal(String typeName) {
		return INTERNAL_TYPES.contains(typeName);
	}

	/** The names without the engine's own types, in their order: what a listing shows. */
	public static Set<String> withoutInternal(Collection<String> typeNames) {
		Set<String> names = new java.util.LinkedHashSet<>(typeNames);
		names.removeAll(INTERNAL_TYPES);
		return names;
	}

	/**
	 * The application's type names (the engine's own left out), sorted: what an error
	 * lists as known.
	 */
	public synchronized List<String> applicationTypeNames() {
		return withoutInternal(this.byName.keySet()).stream().sorted().toList();
	}

}
