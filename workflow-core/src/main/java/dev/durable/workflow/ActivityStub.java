package dev.durable.workflow;

import java.lang.reflect.Type;

import org.jspecify.annotations.Nullable;

/**
 * An activity called by its type name, for workflow code that has no interface for it (an
 * activity implemented in another service, or chosen at run time):
 * {@code Workflows.activity("charge",
 * options).execute(Receipt.class, order)}. The arguments are converted like those of a
 * typed stub (each by its own class); the result is converted to the type asked for.
 * Calls are recorded and replayed like any activity call; only valid in workflow code.
 */
public interface ActivityStub {

	/** Runs the activity and waits for its result. */
	<R> @Nullable R execute(Class<R> resultType, @Nullable Object... args);

	/** Runs the activity and waits for its result, of a generic type. */
	@Nullable Object execute(Type resultType, @Nullable Object... args);

	/**
	 * Starts the activity; the promise completes with its result or fails with its
	 * failure.
	 */
	<R> Promise<R> executeAsync(Class<R> resultType, @Nullable Object... args);

}
