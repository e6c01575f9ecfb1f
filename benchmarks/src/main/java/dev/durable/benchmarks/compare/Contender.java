package dev.durable.benchmarks.compare;

import java.util.List;

import com.zaxxer.hikari.HikariDataSource;

/**
 * One engine under comparison, as the scenarios drive it: the same calls for Durable and
 * for the peer engine, each implementation in its own class. Every method may be called
 * from many threads at once.
 */
interface Contender extends AutoCloseable {

	/**
	 * The flow-control queue of the queue scenario, declared by the engine built for it.
	 */
	String QUEUE = "bench";

	/** How many workflows of {@link #QUEUE} run at once. */
	int QUEUE_CONCURRENCY = 8;

	/** The name printed in the report. */
	String name();

	/**
	 * The database (on the shared server) that holds this engine's tables and nothing
	 * else.
	 */
	String database();

	/**
	 * The engine's connection pool (the counters make its idle connections report, see
	 * {@link PgCounters}).
	 */
	HikariDataSource pool();

	/**
	 * Every pool the engine's nodes use on its database: the counters make each one's
	 * idle connections report. The engine's pool unless a second node has one of its own.
	 */
	default List<HikariDataSource> pools() {
		return List.of(pool());
	}

	/** Starts a workflow that runs {@code steps} no-op steps and waits for its result. */
	void runSteps(String workflowId, int steps);

	/**
	 * The same through the flow-control queue {@link #QUEUE}: the workflow waits, stored,
	 * until the queue admits it. Only on an engine built with the queue.
	 */
	void runQueuedSteps(String workflowId, int steps);

	/**
	 * Starts a workflow that waits for the signal {@code go}, then completes; returns at
	 * once.
	 */
	void startWaiting(String workflowId);

	/**
	 * Sends the signal {@code go} to a workflow started by {@link #startWaiting}
	 * (possibly while another thread is in {@link #awaitResult} for it).
	 */
	void signal(String workflowId);

	/**
	 * Waits for the result of a workflow started by {@link #startWaiting}, and forgets
	 * it.
	 */
	void awaitResult(String workflowId);

	/**
	 * Makes {@link #close()} do nothing, for a run that keeps both engines up (the smoke
	 * test).
	 */
	void keepOpen();

	/** Stops the engine and closes its pool, even after {@link #keepOpen()}. */
	void closeNow();

	/** Stops the engine and closes its pool, unless {@link #keepOpen()} was called. */
	@Override
	void close();

}
