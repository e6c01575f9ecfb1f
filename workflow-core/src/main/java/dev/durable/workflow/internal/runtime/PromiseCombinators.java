package dev.durable.workflow.internal.runtime;

import java.util.Collection;
import java.util.List;

import dev.durable.workflow.Promise;

/**
 * {@link Promise#allOf} and {@link Promise#anyOf} on the deterministic scheduler of the
 * current run.
 */
public final class PromiseCombinators implements Promise.Combinators {

	@Override
	public Promise<Void> allOf(Collection<? extends Promise<?>> promises) {
		return LazyPromise.allOf(List.copyOf(promises));
	}

	@Override
	public <T> Promise<T> anyOf(Collection<? extends Promise<? extends T>> promises) {
		return LazyPromise.anyOf(List.copyOf(promises));
	}

}
