package dev.durable.workflow.internal.worker;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.internal.store.RunRow;

/**
 * What the client side asks of the node it runs on: whether a start runs here at once,
 * the runs held in memory, and queries answered from them.
 */
public interface LocalNode {

	UUID nodeId();

	/** The workflow types this node registered. */
	Set<String> servedTypes();

	/** Whether a start of this type on this queue runs here at once. */
	boolean servesLocally(String workflowType, String taskQueue);

	/**
	 * Eager starts of runs this node owns (see {@link FirstTasks}), or {@code null} when
	 * this node runs no tasks now.
	 */
	FirstTasks firstTasks();

	/**
	 * Runs the first task of a run this node just started: at once, or at its delayed
	 * start.
	 */
	void adoptStarted(UUID runId, Instant at);

	/**
	 * Whether this node holds the run open in memory: its close will then wake the local
	 * waiters with the outcome (a run lost to another node wakes nobody; waiters
	 * re-read).
	 */
	boolean holdsRun(UUID runId);

	/**
	 * Answers a query from the run's committed state, on this node.
	 * @throws dev.durable.workflow.client.QueryFailedException when the handler fails or
	 * blocks
	 * @throws dev.durable.workflow.client.UnknownHandlerException when there is no such
	 * query
	 */
	byte[] query(RunRow row, String name, byte[] argument);

	/**
	 * What the open run's code waits for now, answered from committed state as a query
	 * is.
	 */
	List<RunWait> waitingOn(RunRow row);

	/**
	 * What the run's code last set with {@code Workflows.setCurrentDetails}, answered as
	 * a query is, or {@code null}.
	 */
	String currentDetails(RunRow row);

}
