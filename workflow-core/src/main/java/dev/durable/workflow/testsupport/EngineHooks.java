package dev.durable.workflow.testsupport;

import java.util.UUID;

/**
 * Test seams of a node, set with {@code WorkflowEngine.Builder.hooks}: called at the
 * points where a real node can stall (a GC pause, a debugger, the network), so that a
 * test can hold it there. Not for applications.
 */
public interface EngineHooks {

	EngineHooks NONE = new EngineHooks() {
	};

	/**
	 * Called inside the commit transaction of a workflow task, before its
	 * compare-and-set.
	 */
	default void beforeTaskCommit(UUID runId) {
	}

	/**
	 * Called after a workflow task's commit was written, before its effects (the
	 * activities it scheduled start): what it throws reaches the engine as a commit whose
	 * acknowledgment was lost.
	 */
	default void afterTaskCommit(UUID runId) {
	}

	/** Called before each node heartbeat. */
	default void beforeHeartbeat() {
	}

}
