package dev.durable.benchmarks.compare;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.zaxxer.hikari.HikariDataSource;

import dev.dbos.transact.DBOS;
import dev.dbos.transact.StartWorkflowOptions;
import dev.dbos.transact.config.DBOSConfig;
import dev.dbos.transact.workflow.Queue;
import dev.dbos.transact.workflow.WorkflowHandle;

/**
 * DBOS Transact Java in this JVM, on its own database of the shared server, with a pool
 * of the same size as Durable's. Its application version is pinned, so that a launch does
 * not try to recover the workflows an earlier launch left.
 */
final class DbosContender extends PooledContender {

	static final String APPLICATION_VERSION = "durable-benchmarks-1";

	private final DBOS dbos;

	private final DbosBench workflows;

	/**
	 * The queue of the queue scenario, registered only by the engine built for it; null
	 * otherwise.
	 */
	private final Queue queue;

	private final Map<String, WorkflowHandle<String, RuntimeException>> waiting = new ConcurrentHashMap<>();

	/** The engine of every scenario but the queue one, with no queue registered. */
	DbosContender(HikariDataSource pool, String jdbcUrl, String database) {
		this(pool, jdbcUrl, database, false);
	}

	/**
	 * The engine of the queue scenario: it registers the queue before its launch, with
	 * DBOS's default polling interval; only this one, since every registered queue is
	 * polled.
	 */
	static DbosContender withQueue(HikariDataSource pool, String jdbcUrl, String database) {
		return new DbosContender(pool, jdbcUrl, database, true);
	}

	private DbosContender(HikariDataSource pool, String jdbcUrl, String database, boolean registerQueue) {
		super(pool, database);
		DBOSConfig config = DBOSConfig.defaults("durable-benchmarks")
			.withDatabaseUrl(jdbcUrl)
			.withDbUser("postgres")
			.withDbPassword("")
			.withDataSource(pool)
			.withAppVersion(APPLICATION_VERSION)
			.withAdminServer(false);
		this.dbos = new DBOS(config);
		this.workflows = this.dbos.registerProxy(DbosBench.class, new DbosBenchImpl(this.dbos));
		this.queue = registerQueue ? new Queue(QUEUE).withConcurrency(QUEUE_CONCURRENCY) : null;
		if (this.queue != null) {
			this.dbos.registerQueue(this.queue);
		}
		this.dbos.launch();
	}

	@Override
	public String name() {
		return ComparisonReport.DBOS;
	}

	@Override
	public void runSteps(String workflowId, int steps) {
		this.dbos.startWorkflow(() -> this.workflows.steps(steps), new StartWorkflowOptions(workflowId)).getResult();
	}

	@Override
	public void runQueuedSteps(String workflowId, int steps) {
		if (this.queue == null) {
			throw new IllegalStateException("This DBOS engine was built without the queue " + QUEUE);
		}
		this.dbos
			.startWorkflow(() -> this.workflows.steps(steps),
					new StartWorkflowOptions(workflowId).withQueue(this.queue))
			.getResult();
	}

	@Override
	public void startWaiting(String workflowId) {
		this.waiting.put(workflowId,
				this.dbos.startWorkflow(this.workflows::waitForSignal, new StartWorkflowOptions(workflowId)));
	}

	@Override
	public void signal(String workflowId) {
		this.dbos.send(workflowId, "now", "go");
	}

	@Override
	public void awaitResult(String workflowId) {
		this.waiting.get(workflowId).getResult();
		this.waiting.remove(workflowId);
	}

	@Override
	void stopEngine() {
		this.dbos.close();
	}

}
