package dev.durable.workflow;

/**
 * A deterministic mutex for workflow code, to serialize blocking handlers that share
 * state ({@link Workflows#newLock()}). Waiting for it is durable like any other wait.
 */
public interface WorkflowLock {

	/** Waits until the lock is free, then takes it. */
	void lock();

	/** Takes the lock if it is free. @return whether it was taken */
	boolean tryLock();

	/** Releases the lock; the next waiter in line takes it when it next runs. */
	void unlock();

	/** Whether some workflow thread holds the lock. */
	boolean isLocked();

}
