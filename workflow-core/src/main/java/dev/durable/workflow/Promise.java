package dev.durable.workflow;

import java.util.Arrays;
import java.util.Collection;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.internal.support.Providers;

/**
 * The result of an asynchronous workflow operation (activity, timer,
 * {@link Workflows#async}). Only valid inside workflow code; {@link #get()} blocks
 * durably.
 *
 * @param <T> the value type
 */
public interface Promise<T> {

	/** Blocks until completed; returns the value or throws the failure. */
	T get();

	/** Whether the promise completed, with a value or a failure. */
	boolean isCompleted();

	/** The failure once completed exceptionally, otherwise {@code null}. */
	@Nullable RuntimeException getFailure();

	/** A promise of the function applied to this promise's value. */
	<U> Promise<U> thenApply(Function<? super T, ? extends U> fn);

	/** A promise that completes when all complete, or fails with the first failure. */
	static Promise<Void> allOf(Collection<? extends Promise<?>> promises) {
		return Providers.of(Combinators.class).allOf(promises);
	}

	/** A promise that completes when all complete, or fails with the first failure. */
	static Promise<Void> allOf(Promise<?>... promises) {
		return allOf(Arrays.asList(promises));
	}

	/**
	 * A promise that completes like the first of the given promises to complete: with its
	 * value or its failure. Given promises of different types, {@code T} is their common
	 * supertype ({@code Object} at worst).
	 * @param <T> the value type
	 * @throws IllegalArgumentException when no promise is given
	 */
	static <T> Promise<T> anyOf(Collection<? extends Promise<? extends T>> promises) {
		return Providers.of(Combinators.class).anyOf(promises);
	}

	/**
	 * A promise that completes like the first of the given promises to complete: with its
	 * value or its failure. Given promises of different types, {@code T} is their common
	 * supertype ({@code Object} at worst).
	 * @param <T> the value type
	 * @throws IllegalArgumentException when no promise is given
	 */
	@SafeVarargs
	static <T> Promise<T> anyOf(Promise<? extends T>... promises) {
		return anyOf(Arrays.asList(promises));
	}

	/**
	 * What {@link #allOf} and {@link #anyOf} run on: implemented by the engine's workflow
	 * runtime and found with {@link java.util.ServiceLoader}; not for applications.
	 */
	interface Combinators {

		Promise<Void> allOf(Collection<? extends Promise<?>> promises);

		<T> Promise<T> anyOf(Collection<? extends Promise<? extends T>> promises);

	}

}
