package dev.durable.workflow.internal.runtime;

import dev.durable.workflow.WorkflowLock;

/** The lock: a flag read by await conditions; deterministic because the scheduler is. */
public final class WorkflowLockImpl implements WorkflowLock {

	private boolean locked;

	@Override
	public void lock() {
		WorkflowThread.coroutine().await(() -> !this.locked);
		this.locked = true;
	}

	@Override
	public boolean tryLock() {
		if (this.locked) {
			return false;
		}
		this.locked = true;
		return true;
	}

	@Override
	public void unlock() {
		if (!this.locked) {
			throw new IllegalStateException("The workflow lock is not held");
		}
		this.locked = false;
	}

	@Override
	public boolean isLocked() {
		return this.locked;
	}

}
