package dev.durable.workflow.activity;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.durable.workflow.failure.ApplicationFailure;

/**
 * Optional per-method activity options. Durations are ISO-8601 ({@code "PT30S"}); an
 * empty string or zero keeps the default.
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

	/**
	 * When the {@link #maxAttempts()} are exhausted, pause the activity instead of
	 * failing it: the run waits until an operator unpauses or resets it (see
	 * {@link dev.durable.workflow.RetryPolicy#pauseWhenExhausted()}).
	 */
	boolean pauseWhenExhausted() default false;

	/** Delay before the first retry. */
	String initialInterval() default "";

	/** Multiplier of the retry delay after each attempt; 0 keeps the default 2.0. */
	double backoffCoefficient() default 0;

	/** Upper bound of the retry delay. */
	String maximumInterval() default "";

	/**
	 * The activity task queue it runs on: written to the {@code activity} table by the
	 * task's commit and claimed by a node serving the queue
	 * ({@code durable.workflow.worker.activity-task-queues}). Empty: inline on the node
	 * that owns the run.
	 */
	String taskQueue() default "";

	/**
	 * Maximum time an attempt on a task queue waits to be claimed, from when it is due.
	 */
	String scheduleToStartTimeout() default "";

	/**
	 * Failure types ({@link ApplicationFailure#getType()} or exception class names) never
	 * retried.
	 */
	String[] nonRetryableErrorTypes() default {};

	/**
	 * Runs each attempt in a database transaction on the engine's {@code DataSource} (the
	 * application's own database) and records the activity's completion in that same
	 * transaction: the activity's database writes and its recorded result commit together
	 * or not at all, so they happen exactly once across crashes, retries and takeovers.
	 * The activity reaches the transaction through
	 * {@link ActivityTransaction#connection()}, or, under Spring, through any
	 * {@code JdbcTemplate} or {@code DataSourceUtils} on the same {@code DataSource}.
	 * Only for inline activities (not on a {@link #taskQueue()}); what else the activity
	 * does (HTTP calls, messages) stays at least once.
	 */
	boolean transactional() default false;

	/**
	 * The isolation level of a {@link #transactional()} activity's transaction;
	 * {@link TransactionIsolation#DEFAULT} takes the engine's default (see
	 * {@code WorkflowEngine.Builder#transactionalActivities}).
	 */
	TransactionIsolation isolation() default TransactionIsolation.DEFAULT;

	/**
	 * How many times a {@link #transactional()} activity's transaction is run again at
	 * once when PostgreSQL aborts it for a serialization failure or a deadlock (SQLState
	 * {@code 40001} or {@code 40P01}), before the attempt counts as failed; negative
	 * takes the engine's default. These runs again are not attempts: the retry policy
	 * sees only the last one's failure.
	 */
	int serializationRetries() default -1;

}
