package dev.durable.workflow.internal.worker;

import java.util.UUID;

/** Test seams: called at points where a real node can stall (GC pause, debugger, network). */
public interface EngineHooks {

	EngineHooks NONE = new EngineHooks() {
	};

	/** Called inside the commit transaction of a workflow task, before its compare-and-set. */
	default void beforeTaskCommit(UUID runId) {
	}

	/** Called before each node heartbeat. */
	default void beforeHeartbeat() {
	}

}
