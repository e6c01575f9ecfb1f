package dev.durable.workflow.internal.registry;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.VersioningBehavior;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowInit;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.engine.HandlerKind;
import dev.durable.workflow.failure.MissingInputException;

/**
 * A validated workflow class: its type name, run method and optional init method.
 *
 * @param typeName the workflow type name
 * @param workflowClass the class
 * @param runMethod the {@code @WorkflowRun} method
 * @param initMethod the {@code @WorkflowInit} method or {@code null}
 * @param handlers the signal, query and update handlers
 * @param failWorkflowExceptionTypes the exception types that fail the run (the
 * annotation's and the engine's)
 * @param receives the signal names declared for {@code Workflows.receive}
 */
public record WorkflowDefinition(String typeName, Class<?> workflowClass, Method runMethod, Method initMethod,
		MessageHandlers handlers, List<Class<? extends Throwable>> failWorkflowExceptionTypes,
		ReceivedSignals receives) {

	public WorkflowDefinition {
		failWorkflowExceptionTypes = List.copyOf(failWorkflowExceptionTypes);
	}

	public static WorkflowDefinition of(Class<?> workflowClass) {
		return of(workflowClass, List.of());
	}

	/**
	 * Validates a class; {@code engineFailTypes} are added to its
	 * {@code failWorkflowExceptionTypes}.
	 */
	public static WorkflowDefinition of(Class<?> workflowClass, List<Class<? extends Throwable>> engineFailTypes) {
		Workflow annotation = workflowClass.getAnnotation(Workflow.class);
		if (annotation == null) {
			throw new IllegalArgumentException(workflowClass.getName() + " is not annotated with @Workflow");
		}
		if (workflowClass.isInterface() || Modifier.isAbstract(workflowClass.getModifiers())) {
			throw new IllegalArgumentException("@Workflow class " + workflowClass.getName() + " must be concrete");
		}
		String name = annotation.value().isEmpty() ? workflowClass.getSimpleName() : annotation.value();
		Method run = null;
		Method init = null;
		for (Method method : workflowClass.getMethods()) {
			if (method.isAnnotationPresent(WorkflowRun.class)) {
				if (run != null) {
					throw new IllegalArgumentException(
							workflowClass.getName() + " has more than one @WorkflowRun method");
				}
				run = method;
			}
			if (method.isAnnotationPresent(WorkflowInit.class)) {
				init = method;
			}
		}
		if (run == null) {
			throw new IllegalArgumentException(workflowClass.getName() + " has no public @WorkflowRun method");
		}
		if (run.getParameterCount() > 1) {
			throw new IllegalArgumentException("@WorkflowRun " + run + " takes more than one parameter; use a record");
		}
		PayloadTypes.check(run, "@WorkflowRun");
		if (init != null && init.getParameterCount() != run.getParameterCount()) {
			throw new IllegalArgumentException("@WorkflowInit " + init + " must take the same parameter as " + run);
		}
		List<Class<? extends Throwable>> failTypes = new ArrayList<>(List.of(annotation.failWorkflowExceptionTypes()));
		failTypes.addAll(engineFailTypes);
		MessageHandlers handlers = MessageHandlers.of(workflowClass);
		return new WorkflowDefinition(name, workflowClass, run, init, handlers, failTypes,
				ReceivedSignals.of(workflowClass, handlers));
	}

	/**
	 * Whether this is a dynamic workflow ({@code @Workflow(dynamic = true)}): it runs
	 * starts of every type name no named workflow has, its input given as it was sent (an
	 * {@code EncodedValue} parameter), the type name in
	 * {@code Workflows.info().workflowType()}.
	 */
	public boolean isDynamic() {
		return this.workflowClass.getAnnotation(Workflow.class).dynamic();
	}

	/**
	 * The versioning behaviour the class declares
	 * ({@link VersioningBehavior#NODE_DEFAULT} when it leaves it to the node).
	 */
	public VersioningBehavior versioning() {
		return this.workflowClass.getAnnotation(Workflow.class).versioning();
	}

	/** The run method's parameter type, or {@code null} when it takes none. */
	public Type inputType() {
		return (this.runMethod.getParameterCount() == 1) ? this.runMethod.getGenericParameterTypes()[0] : null;
	}

	/**
	 * Refuses a start without input when the run method takes a parameter that may not be
	 * absent: a primitive, or a reference type not annotated {@code @Nullable} (any
	 * annotation of that simple name, on the type or the parameter). Such a run's first
	 * task could only fail.
	 * @throws MissingInputException when the input is {@code null} and required
	 */
	public void checkInput(@Nullable Object input) {
		if (input == null && !isDynamic() && this.runMethod.getParameterCount() == 1
				&& !NullableParameters.mayBeNull(this.runMethod, 0)) {
			throw new MissingInputException(
					"Workflow " + this.typeName + " takes an input ("
							+ this.runMethod.getGenericParameterTypes()[0].getTypeName()
							+ "), and the start has none; annotate the parameter @Nullable to make it optional",
					"input");
		}
	}

	public Type resultType() {
		return this.runMethod.getGenericReturnType();
	}

	/**
	 * Whether a client's signal of this name is accepted: a {@code @SignalMethod} takes
	 * it, the name is declared for {@code Workflows.receive}, or a dynamic signal handler
	 * takes any name.
	 */
	public boolean acceptsSignal(String name) {
		return this.handlers.find(HandlerKind.SIGNAL, name) != null || this.receives.declares(name);
	}

	/**
	 * Whether a signal of this name waits for {@code Workflows.receive} instead of going
	 * to a handler: it is declared for receive (a declared name goes to receive even when
	 * a dynamic handler exists), or nothing else takes it (signals to undeclared names
	 * that older versions accepted, or sent by {@code Workflows.signalExternal}, wait
	 * unconsumed as before).
	 */
	public boolean buffersSignal(String name) {
		return this.receives.declares(name) || this.handlers.find(HandlerKind.SIGNAL, name) == null;
	}

	/**
	 * The signal names a client may send, for messages: the handlers' and the declared
	 * ones ({@code *} when a dynamic handler takes any name).
	 */
	public java.util.Set<String> acceptedSignalNames() {
		java.util.Set<String> names = new java.util.TreeSet<>(this.handlers.names(HandlerKind.SIGNAL));
		names.addAll(this.receives.names());
		if (this.handlers.hasDynamic(HandlerKind.SIGNAL)) {
			names.add("*");
		}
		return names;
	}

	/** Whether the throwable is an instance of one of the types that fail the run. */
	public boolean failsWorkflow(Throwable thrown) {
		for (Class<? extends Throwable> type : this.failWorkflowExceptionTypes) {
			if (type.isInstance(thrown)) {
				return true;
			}
		}
		return false;
	}

}
