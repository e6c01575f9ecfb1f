package dev.durable.workflow.internal.runtime;

import java.util.ArrayList;
import java.util.List;

import dev.durable.workflow.CancellationScope;

/**
 * A cancellation scope: a tree of scopes, each with the cancel hooks of what started
 * inside it.
 */
final class CancellationScopeImpl implements CancellationScope {

	private final List<CancellationScopeImpl> children = new ArrayList<>();

	private final List<Runnable> cancelHooks = new ArrayList<>();

	private final Runnable body;

	private boolean cancelRequested;

	private String reason;

	CancellationScopeImpl(CancellationScopeImpl parent, Runnable body) {
		this.body = body;
		if (parent != null) {
			parent.children.add(this);
			if (parent.cancelRequested) {
				this.cancelRequested = true;
				this.reason = parent.reason;
			}
		}
	}

	@Override
	public void run() {
		Coroutine coroutine = WorkflowThread.coroutine();
		coroutine.pushScope(this);
		try {
			this.body.run();
		}
		finally {
			coroutine.popScope();
		}
	}

	@Override
	public void cancel(String reason) {
		if (this.cancelRequested) {
			return;
		}
		this.cancelRequested = true;
		this.reason = reason;
		List<Runnable> hooks = new ArrayList<>(this.cancelHooks);
		this.cancelHooks.clear();
		hooks.forEach(Runnable::run);
		new ArrayList<>(this.children).forEach((child) -> child.cancel(reason));
	}

	@Override
	public boolean isCancelRequested() {
		return this.cancelRequested;
	}

	String reason() {
		return (this.reason != null) ? this.reason : "canceled";
	}

	/**
	 * Registers what to do on cancel (cancel a timer or an activity); runs at once if
	 * already canceled.
	 */
	void onCancel(Runnable hook) {
		if (this.cancelRequested) {
			hook.run();
		}
		else {
			this.cancelHooks.add(hook);
		}
	}

	void removeHook(Runnable hook) {
		this.cancelHooks.remove(hook);
	}

}
