package dev.durable.benchmarks.compare;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import com.zaxxer.hikari.HikariDataSource;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * Durable, one node in this JVM with the engine's default settings, on its own database
 * of the shared server; for the task-queue scenario, a second node that only serves the
 * task queue.
 */
final class DurableContender extends PooledContender {

	private static final Duration RESULT_TIMEOUT = Duration.ofMinutes(5);

	private final WorkflowEngine engine;

	/**
	 * The worker-only node of the task-queue scenario, with a pool of its own; null
	 * otherwise.
	 */
	private final WorkflowEngine taskQueueWorker;

	private final HikariDataSource workerPool;

	private final Map<String, WorkflowHandle<String>> waiting = new ConcurrentHashMap<>();

	private final boolean queueDeclared;

	/**
	 * Whether the steps scenarios run their steps as local activities (a row of its own).
	 */
	private final boolean localSteps;

	/**
	 * The node of every scenario, with nothing but the bench workflows and their
	 * activity.
	 */
	DurableContender(HikariDataSource pool, String database) {
		this(pool, database, false, null, false);
	}

	/**
	 * The node of the steps scenarios' local-activity row: each step a local activity.
	 */
	static DurableContender withLocalSteps(HikariDataSource pool, String database) {
		return new DurableContender(pool, database, false, null, true);
	}

	/**
	 * The node of the queue scenario, which declares its flow-control queue (only this
	 * one, so that the other scenarios run without queue machinery).
	 */
	static DurableContender withQueue(HikariDataSource pool, String database) {
		return new DurableContender(pool, database, true, null, false);
	}

	/**
	 * The node of the task-queue scenario and a second node on {@code workerPool} that
	 * runs no workflow and serves the task queue of
	 * {@link DurableBenchWorkflows.TaskQueueSteps}, as a worker JVM would; the first node
	 * does not serve it.
	 */
	static DurableContender withTaskQueueWorker(HikariDataSource pool, HikariDataSource workerPool, String database) {
		return new DurableContender(pool, database, false, workerPool, false);
	}

	private DurableContender(HikariDataSource pool, String database, boolean declareQueue, HikariDataSource workerPool,
			boolean localSteps) {
		super(pool, database);
		this.localSteps = localSteps;
		WorkflowEngine.Builder builder = WorkflowEngine.builder()
			.dataSource(pool)
			.register(DurableBenchWorkflows.StepsWorkflow.class, DurableBenchWorkflows.WaitWorkflow.class,
					DurableBenchWorkflows.LongHistoryWorkflow.class, DurableBenchWorkflows.TaskQueueStepsWorkflow.class,
					DurableBenchWorkflows.LocalStepsWorkflow.class, DurableBenchWorkflows.EventWaitWorkflow.class,
					DurableBenchWorkflows.EchoWorkflow.class)
			.registerActivities(new DurableBenchWorkflows.NoopSteps())
			.shutdownTimeout(Duration.ofSeconds(5));
		if (declareQueue) {
			builder.queue(QueueDefinition.named(QUEUE).withConcurrency(QUEUE_CONCURRENCY));
		}
		this.queueDeclared = declareQueue;
		this.engine = builder.build().start();
		this.workerPool = workerPool;
		this.taskQueueWorker = (workerPool != null) ? WorkflowEngine.builder()
			.dataSource(workerPool)
			.runWorkflows(false)
			.activityTaskQueues(DurableBenchWorkflows.TASK_QUEUE)
			.registerActivities(new DurableBenchWorkflows.TaskQueueNoopSteps())
			.shutdownTimeout(Duration.ofSeconds(5))
			.build()
			.start() : null;
	}

	@Override
	public String name() {
		return this.localSteps ? ComparisonReport.DURABLE_LOCAL : ComparisonReport.DURABLE;
	}

	@Override
	public List<HikariDataSource> pools() {
		return (this.workerPool != null) ? List.of(pool(), this.workerPool) : List.of(pool());
	}

	@Override
	public void runSteps(String workflowId, int steps) {
		if (this.localSteps) {
			this.engine.client()
				.start(DurableBenchWorkflows.LocalStepsWorkflow::run, steps, StartOptions.withId(workflowId))
				.result(RESULT_TIMEOUT);
			return;
		}
		this.engine.client()
			.start(DurableBenchWorkflows.StepsWorkflow::run, steps, StartOptions.withId(workflowId))
			.result(RESULT_TIMEOUT);
	}

	@Override
	public void runQueuedSteps(String workflowId, int steps) {
		if (!this.queueDeclared) {
			throw new IllegalStateException("This Durable node was built without the queue " + QUEUE);
		}
		this.engine.client()
			.start(DurableBenchWorkflows.StepsWorkflow::run, steps,
					StartOptions.builder().workflowId(workflowId).queue(QUEUE).build())
			.result(RESULT_TIMEOUT);
	}

	/**
	 * Starts a workflow of {@code steps} no-op steps on the task queue and waits for its
	 * result.
	 */
	void runTaskQueueSteps(String workflowId, int steps) {
		if (this.taskQueueWorker == null) {
			throw new IllegalStateException("This Durable node was built without a node serving the task queue");
		}
		this.engine.client()
			.start(DurableBenchWorkflows.TaskQueueStepsWorkflow::run, steps, StartOptions.withId(workflowId))
			.result(RESULT_TIMEOUT);
	}

	@Override
	public void startWaiting(String workflowId) {
		this.waiting.put(workflowId,
				this.engine.client().start(DurableBenchWorkflows.WaitWorkflow::run, StartOptions.withId(workflowId)));
	}

	@Override
	public void signal(String workflowId) {
		this.waiting.get(workflowId).signal("go", "now");
	}

	@Override
	public void awaitResult(String workflowId) {
		this.waiting.get(workflowId).result(RESULT_TIMEOUT);
		this.waiting.remove(workflowId);
	}

	/**
	 * Starts a workflow that waits for the next event on
	 * {@link DurableBenchWorkflows#TOPIC}; returns at once (the run reaches its wait in
	 * the start's first workflow task).
	 */
	void startEventWaiting(String workflowId) {
		this.engine.client().start(DurableBenchWorkflows.EventWaitWorkflow::run, StartOptions.withId(workflowId));
	}

	/** Publishes one event on {@link DurableBenchWorkflows#TOPIC}. */
	void publish(Object payload) {
		this.engine.client().publish(DurableBenchWorkflows.TOPIC, payload);
	}

	/**
	 * Starts the echo workflow with the Java client, without waiting for its result (the
	 * eager start runs its first task, here the whole run, inside the call).
	 */
	void startEcho(String workflowId, String input) {
		this.engine.client().start(DurableBenchWorkflows.EchoWorkflow::run, input, StartOptions.withId(workflowId));
	}

	/** Forgets the handles of workflows started by {@link #startWaiting}. */
	void forgetWaiting(List<String> workflowIds) {
		workflowIds.forEach(this.waiting::remove);
	}

	/**
	 * Runs a workflow whose history has about {@code 2 x batches x width} step events;
	 * returns its run id.
	 */
	UUID buildLongHistory(String workflowId, int batches, int width) {
		WorkflowHandle<Integer> handle = this.engine.client()
			.start(DurableBenchWorkflows.LongHistoryWorkflow::run, new DurableBenchWorkflows.Shape(batches, width),
					StartOptions.withId(workflowId));
		handle.result(RESULT_TIMEOUT);
		return handle.runId();
	}

	/**
	 * Replays a run's stored history from scratch on a fresh instance; returns the events
	 * replayed.
	 */
	int replay(UUID runId) {
		return this.engine.replay(runId);
	}

	@Override
	void stopEngine() {
		// the workflow node first, so that no attempt is scheduled for a worker already
		// gone
		try {
			this.engine.shutdown();
		}
		finally {
			if (this.taskQueueWorker != null) {
				try {
					this.taskQueueWorker.shutdown();
				}
				finally {
					this.workerPool.close();
				}
			}
		}
	}

}
