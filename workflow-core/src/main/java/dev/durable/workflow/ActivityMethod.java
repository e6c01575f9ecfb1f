package dev.durable.workflow;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Optional per-method activity options. Durations are ISO-8601 ({@code "PT30S"}); an empty string
 * or zero keeps the default.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ActivityMethod {

	/** The activity type name; defaults to the method name. */
	String name() default "";

	/** Maximum time of one attempt. */
	String startToCloseTimeout() default "";

	/** Maximum time of all attempts together, from the first schedule. */
	String scheduleToCloseTimeout() default "";

	/** Maximum time between two heartbeats of a running attempt. */
	String heartbeatTimeout() default "";

	/** Maximum number of attempts; 0 means unlimited. */
	int maxAttempts() default 0;

	/** Delay before the first retry. */
	String initialInterval() default "";

	/** Multiplier of the retry delay after each attempt; 0 keeps the default 2.0. */
	double backoffCoefficient() default 0;

	/** Upper bound of the retry delay. */
	String maximumInterval() default "";

	/**
	 * The activity task queue it runs on: written to the {@code activity} table by the task's commit
	 * and claimed by a node serving the queue ({@code durable.workflow.worker.activity-task-queues}).
	 * Empty: inline on the node that owns the run.
	 */
	String taskQueue() default "";

	/** Maximum time an attempt on a task queue waits to be claimed, from when it is due. */
	String scheduleToStartTimeout() default "";

	/** Failure types ({@link ApplicationFailure#getType()} or exception class names) never retried. */
	String[] nonRetryableErrorTypes() default {};

}
