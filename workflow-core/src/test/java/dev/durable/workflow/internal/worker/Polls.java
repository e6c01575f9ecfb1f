package dev.durable.workflow.internal.worker;

import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * Runs a round of a node's fallback poll on the test's thread, for tests outside this
 * package.
 */
public final class Polls {

	private Polls() {
	}

	/**
	 * One round: the claims of orphaned runs and the node's own runs with work, done when
	 * it returns.
	 */
	public static void pollOnce(WorkflowEngine engine) {
		NodeInternals.poll(EngineInternals.node(engine)).pollOnce(false);
	}

}
