package dev.durable.workflow;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;

/**
 * Marks a class as a workflow definition. The engine creates a fresh instance per run, on
 * the run's own thread; it is never a Spring component and never wrapped in AOP proxies.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Workflow {

	/** The workflow type name; defaults to the class's simple name. */
	String value() default "";

	/** A dynamic workflow receives starts for type names no other workflow claims. */
	boolean dynamic() default false;

	/**
	 * Exception types that fail the run when workflow code throws them (instances of
	 * subclasses included), as an {@link ApplicationFailure} does: the run closes FAILED
	 * with a failure of type the exception's class name, its message and stack trace. Any
	 * other exception that is not an engine failure ({@code ApplicationFailure},
	 * {@code ActivityFailure}, {@code ChildWorkflowFailure}, {@code TimeoutFailure},
	 * {@code CanceledFailure}, ...) fails the workflow task instead, which is retried
	 * until fixed code is deployed. Added to the engine's
	 * {@link WorkflowEngine.Builder#failWorkflowExceptionTypes(Class...) default}; from
	 * an update handler such an exception fails the update only. Non-determinism and the
	 * engine's own task failures always fail the task.
	 */
	Class<? extends Throwable>[] failWorkflowExceptionTypes() default {};

	/**
	 * The signal names the workflow takes with {@link Workflows#receive(String, Class)}
	 * (or {@link Workflows#signalPromise(String, Class)}), payloads typed by the
	 * receiving call. A {@code static final} {@link Signal} field of the class declares a
	 * name with its payload type instead. A client's signal is accepted only by a name
	 * that has a {@link SignalMethod}, is declared here or by a {@code Signal} field, or
	 * goes to a dynamic {@code @SignalMethod}; any other name is rejected with
	 * {@code UnknownHandlerException} (REST: 404 {@code UNKNOWN_HANDLER}) and nothing is
	 * stored, so a typo cannot wait forever in the run's inbox. Receiving a name that is
	 * not declared fails the workflow task. A name must not be blank nor also be a
	 * {@code @SignalMethod}'s (whose signals go to the method, never to {@code receive}).
	 */
	String[] receives() default {};

	/**
	 * Which build runs the workflow tasks of this type's runs when nodes of several
	 * builds share the database: {@link VersioningBehavior#PINNED} keeps each run on the
	 * build that started it, {@link VersioningBehavior#AUTO_UPGRADE} moves it to the
	 * current build at its next task. Default: the node's default.
	 */
	VersioningBehavior versioning() default VersioningBehavior.NODE_DEFAULT;

}
