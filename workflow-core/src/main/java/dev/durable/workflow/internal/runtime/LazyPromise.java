package dev.durable.workflow.internal.runtime;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.durable.workflow.Promise;

/**
 * A promise computed on demand from other promises or buffered input: it is complete when
 * its condition holds, and its value is taken only when {@link #get()} is called. That is
 * what lets {@code Promise.anyOf(signalPromise, timer)} leave the losing signal
 * unconsumed.
 */
final class LazyPromise<T> implements Promise<T> {

	private final BooleanSupplier ready;

	private final Supplier<T> value;

	private final Supplier<RuntimeException> failure;

	private boolean taken;

	private T result;

	private RuntimeException thrown;

	LazyPromise(BooleanSupplier ready, Supplier<T> value, Supplier<RuntimeException> failure) {
		this.ready = ready;
		this.value = value;
		this.failure = failure;
	}

	@Override
	public T get() {
		if (!this.taken) {
			WorkflowThread.coroutine().await(this::isCompleted);
			this.taken = true;
			try {
				this.result = this.value.get();
			}
			catch (RuntimeException ex) {
				this.thrown = ex;
			}
		}
		if (this.thrown != null) {
			throw this.thrown;
		}
		return this.result;
	}

	@Override
	public boolean isCompleted() {
		return this.taken || this.ready.getAsBoolean();
	}

	@Override
	public RuntimeException getFailure() {
		return this.taken ? this.thrown : (isCompleted() ? this.failure.get() : null);
	}

	@Override
	public <U> Promise<U> thenApply(Function<? super T, ? extends U> fn) {
		return new LazyPromise<>(this::isCompleted, () -> fn.apply(get()), this::getFailure);
	}

	static Promise<Void> allOf(List<? extends Promise<?>> promises) {
		BooleanSupplier ready = () -> promises.stream().allMatch(Promise::isCompleted)
				|| promises.stream().anyMatch((p) -> p.isCompleted() && p.getFailure() != null);
		Supplier<RuntimeException> failure = () -> promises.stream()
			.filter((p) -> p.isCompleted() && p.getFailure() != null)
			.map(Promise::getFailure)
			.findFirst()
			.orElse(null);
		return new LazyPromise<>(ready, () -> {
			RuntimeException first = failure.get();
			if (first != null) {
				throw first;
			}
			return null;
		}, failure);
	}

	static <T> Promise<T> anyOf(List<? extends Promise<? extends T>> promises) {
		if (promises.isEmpty()) {
			throw new IllegalArgumentException("anyOf needs at least one promise");
		}
		return new LazyPromise<>(() -> promises.stream().anyMatch(Promise::isCompleted),
				() -> promises.stream().filter(Promise::isCompleted).findFirst().orElseThrow().get(),
				() -> promises.stream().filter(Promise::isCompleted).findFirst().map(Promise::getFailure).orElse(null));
	}

}
