package dev.durable.workflow.internal.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.durable.workflow.Promise;

/**
 * A promise completed by the engine (activity, timer) or by workflow code.
 * Single-threaded by construction: only the thread the scheduler runs touches it.
 */
public final class PromiseImpl<T> implements Promise<T> {

	private boolean completed;

	private T value;

	private RuntimeException failure;

	private List<Consumer<PromiseImpl<T>>> callbacks;

	@Override
	public T get() {
		if (!this.completed) {
			WorkflowThread.coroutine().await(() -> this.completed);
		}
		if (this.failure != null) {
			throw this.failure;
		}
		return this.value;
	}

	@Override
	public boolean isCompleted() {
		return this.completed;
	}

	@Override
	public RuntimeException getFailure() {
		return this.failure;
	}

	public void complete(T value) {
		if (this.completed) {
			return;
		}
		this.completed = true;
		this.value = value;
		fire();
	}

	public void fail(RuntimeException failure) {
		if (this.completed) {
			return;
		}
		this.completed = true;
		this.failure = failure;
		fire();
	}

	private void fire() {
		if (this.callbacks != null) {
			List<Consumer<PromiseImpl<T>>> toRun = this.callbacks;
			this.callbacks = null;
			toRun.forEach((callback) -> callback.accept(this));
		}
	}

	void whenComplete(Consumer<PromiseImpl<T>> callback) {
		if (this.completed) {
			callback.accept(this);
			return;
		}
		if (this.callbacks == null) {
			this.callbacks = new ArrayList<>();
		}
		this.callbacks.add(callback);
	}

	@Override
	public <U> Promise<U> thenApply(Function<? super T, ? extends U> fn) {
		PromiseImpl<U> result = new PromiseImpl<>();
		whenComplete((p) -> {
			if (p.failure != null) {
				result.fail(p.failure);
				return;
			}
			try {
				result.complete(fn.apply(p.value));
			}
			catch (RuntimeException ex) {
				result.fail(ex);
			}
		});
		return result;
	}

}
