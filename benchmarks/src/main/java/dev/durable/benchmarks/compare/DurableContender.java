package dev.durable.benchmarks.compare;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import com.zaxxer.hikari.HikariDataSource;

import dev.durable.workflow.WorkflowEngine;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;

/**
 * Durable, one node in this JVM with the engine's default settings, on its own database of the
 * shared server.
 */
final class DurableContender extends PooledContender {

	private static final Duration RESULT_TIMEOUT = Duration.ofMinutes(5);

	private final WorkflowEngine engine;

	private final Map<String, WorkflowHandle<String>> waiting = new ConcurrentHashMap<>();

	DurableContender(HikariDataSource pool, String database) {
		super(pool, database);
		this.engine = WorkflowEngine.builder()
			.dataSource(pool)
			.register(DurableBenchWorkflows.StepsWorkflow.class, DurableBenchWorkflows.WaitWorkflow.class,
					DurableBenchWorkflows.LongHistoryWorkflow.class)
			.registerActivities(new DurableBenchWorkflows.NoopSteps())
			.shutdownTimeout(Duration.ofSeconds(5))
			.build()
			.start();
	}

	@Override
	public String name() {
		return ComparisonReport.DURABLE;
	}

	@Override
	public void runSteps(String workflowId, int steps) {
		this.engine.client()
			.start(DurableBenchWorkflows.StepsWorkflow::run, steps, StartOptions.withId(workflowId))
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

	/** Runs a workflow whose history has about {@code 2 x batches x width} step events; returns its run id. */
	UUID buildLongHistory(String workflowId, int batches, int width) {
		WorkflowHandle<Integer> handle = this.engine.client()
			.start(DurableBenchWorkflows.LongHistoryWorkflow::run, new DurableBenchWorkflows.Shape(batches, width),
					StartOptions.withId(workflowId));
		handle.result(RESULT_TIMEOUT);
		return handle.runId();
	}

	/** Replays a run's stored history from scratch on a fresh instance; returns the events replayed. */
	int replay(UUID runId) {
		return this.engine.replay(runId);
	}

	@Override
	void stopEngine() {
		this.engine.shutdown();
	}

}
