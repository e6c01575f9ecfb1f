package dev.durable.workflow.internal.worker;

import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * The engine's own tests reach the parts a node's start wired through here: the node has
 * no door to them for anything else.
 */
public final class NodeInternals {

	private NodeInternals() {
	}

	/** The fallback poll of a started worker node. */
	static FallbackPoll poll(Engine node) {
		return node.runtime().worker.orElseThrow().poll();
	}

	/** The workflow task executor of a started node. */
	static WorkflowTaskExecutor executor(Engine node) {
		return node.runtime().executor;
	}

	/** Whether the node is stopping and starts no new work (claims, attempts). */
	public static boolean isStopping(WorkflowEngine engine) {
		NodeRuntime runtime = EngineInternals.node(engine).runtime();
		return runtime != null && runtime.services.hasBegun();
	}

}
