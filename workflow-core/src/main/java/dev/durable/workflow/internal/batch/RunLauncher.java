package dev.durable.workflow.internal.batch;

import dev.durable.workflow.client.StartOptions;

/**
 * Starts a run inside the caller's transaction (the client's start, with its checks and
 * policies), so a batch row and the run that carries it out commit together.
 */
@FunctionalInterface
public interface RunLauncher {

	/**
	 * @param workflowType the type
	 * @param input the input, encoded
	 * @param options the start options
	 * @return what to do once the transaction committed (hand the run to its node)
	 * @throws dev.durable.workflow.client.InvalidWorkflowIdException for a bad workflow
	 * id
	 */
	Runnable startInTransaction(String workflowType, byte[] input, StartOptions options);

}
