package dev.durable.workflow.fault;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.FailingStatements;
import dev.durable.workflow.support.StallingHooks;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node takes over a run whose inline activity was running on a node that froze, and the
 * database fails it while it reads the activity's rows (the pool exhausted, a connection
 * cut): the task fails and is retried, and the retry takes the activity over. The node
 * owns the run from the claim on, so no other node would ever recover it.
 */
class RecoveryRetryLaunchesActivitiesTest {

	static final List<String> EXECUTIONS = new CopyOnWriteArrayList<>();

	static final CountDownLatch NEVER = new CountDownLatch(1);

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
		EXECUTIONS.clear();
	}

	@Activity
	public static class Packing {

		private final String node;

		public Packing(String node) {
			this.node = node;
		}

		@ActivityMethod(maxAttempts = 3, initialInterval = "PT5S")
		public String pack(String order) {
			EXECUTIONS.add(this.node + ":" + ActivityContext.current().info().attempt());
			if (this.node.equals("a")) {
				try {
					NEVER.await(); // node a freezes in the middle of the attempt
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return "packed " + order + " on " + this.node;
		}

	}

	@Workflow("pack")
	public static class PackWorkflow {

		private final Packing packing;

		public PackWorkflow(Packing packing) {
			this.packing = packing;
		}

		@WorkflowRun
		public String run(String order) {
			return this.packing.pack(order);
		}

	}

	private int taskAttempt(WorkflowHandle<?> handle) {
		return this.engines.jdbc()
			.queryForObject("SELECT task_attempt FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?",
					Integer.class, handle.runId());
	}

	@Test
	void aTakeoverWhoseActivityReadFailedRecoversTheActivityOnTheTaskRetry() {
		StallingHooks hooks = new StallingHooks();
		WorkflowEngine a = this.engines.start(
				this.engines.builder().register(PackWorkflow.class).registerActivities(new Packing("a")).hooks(hooks));
		WorkflowHandle<String> started = a.client().start(PackWorkflow::run, "order-1", StartOptions.withId("order-1"));
		await().until(() -> EXECUTIONS.size() == 1);

		// b's read of the run's activity rows at its takeover fails once
		FailingStatements failing = new FailingStatements(TestDatabase.dataSource(),
				"last_failure, heartbeat_details FROM");
		failing.failNext(1);
		hooks.stallHeartbeats = true;
		WorkflowEngine b = this.engines.start(this.engines.builder()
			.dataSource(failing.dataSource())
			.register(PackWorkflow.class)
			.registerActivities(new Packing("b")));
		WorkflowHandle<String> handle = b.client().handle(started.workflowId(), String.class);
		await().until(() -> failing.failed() == 1 && taskAttempt(handle) == 1);

		// the task's retry takes the activity over: the attempt on a counts as lost, the
		// retry runs on b
		this.engines.clock.advance(Duration.ofSeconds(1));
		await().until(() -> !handle.describe().pendingActivities().isEmpty()
				&& handle.describe().pendingActivities().get(0).attempt() == 2);
		assertThat(handle.describe().pendingActivities().get(0).lastFailure()).contains("NodeLost");
		this.engines.clock.advance(Duration.ofSeconds(5));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("packed order-1 on b");
		assertThat(EXECUTIONS).containsExactly("a:1", "b:2");
	}

}
