package dev.durable.workflow.fault;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.PartitionProxy;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node cut off by a partition that drops packets cannot roll back the transaction it
 * has open, and the server is not told it is gone: the server must end that transaction
 * by itself, soon enough that another node's statements waiting on its locks (a run's
 * row, an open run's unique workflow id) go through within their statement timeout
 * instead of failing as if the database were unreachable, while nothing is wrong with the
 * database or the other node.
 */
class PartitionedNodeReleasesLocksTest {

	private final Engines engines = new Engines();

	private PartitionProxy proxy;

	private HikariDataSource partitionedPool;

	@AfterEach
	void close() throws Exception {
		if (this.proxy != null) {
			this.proxy.heal();
		}
		this.engines.close();
		if (this.partitionedPool != null) {
			this.partitionedPool.close();
		}
		if (this.proxy != null) {
			this.proxy.close();
		}
	}

	/** Waits a day for its signal. */
	@Workflow("locked")
	public static class WaitingWorkflow {

		private String got;

		@WorkflowRun
		public String run(String id) {
			Workflows.await(Duration.ofDays(1), () -> this.got != null);
			return (this.got != null) ? this.got : "none";
		}

		@SignalMethod
		public void go(String value) {
			this.got = value;
		}

	}

	private WorkflowEngine.Builder node() {
		// a chaos run's settings: a lease of 5 s, the statement timeout it leaves (5 s),
		// and an idle
		// timeout below it. The proxy's blackhole keeps its socket to the server open and
		// answering,
		// so the TCP keepalives that find a real partition cannot find this one: the idle
		// timeout does
		return this.engines.builder()
			.register(WaitingWorkflow.class)
			.heartbeatInterval(Duration.ofSeconds(1))
			.deadAfter(Duration.ofSeconds(6))
			.statementTimeout(Duration.ofSeconds(5))
			.idleInTransactionTimeout(Duration.ofMillis(2500));
	}

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void anotherNodesStatementsGetTheLocksOfAPartitionedNodesOpenTransaction() throws Exception {
		this.proxy = new PartitionProxy(TestDatabase.postgres().getPort());
		this.partitionedPool = TestDatabase
			.pool("jdbc:postgresql://127.0.0.1:" + this.proxy.port() + "/postgres?user=postgres", 4);
		WorkflowEngine a = this.engines.start(node().dataSource(this.partitionedPool));
		WorkflowEngine b = this.engines.start(node());
		WorkflowHandle<String> held = a.client().start(WaitingWorkflow::run, "held", StartOptions.withId("held"));
		await().until(() -> this.engines.count("timer") == 1);

		// node a has one of its transactions open, holding the run's row and a new open
		// run's id
		// (as a commit under way would), when the partition cuts it off
		Connection open = EngineInternals.node(a).engineDataSource().getConnection();
		try {
			open.setAutoCommit(false);
			try (PreparedStatement lock = open.prepareStatement(
					"SELECT 1 FROM " + this.engines.schema + ".workflow_run WHERE workflow_id = 'held' FOR UPDATE")) {
				lock.executeQuery().close();
			}
			try (PreparedStatement insert = open.prepareStatement("INSERT INTO " + this.engines.schema
					+ ".workflow_run (run_id, namespace, workflow_id, workflow_type, task_queue, status, created_at)"
					+ " VALUES (gen_random_uuid(), 'default', 'fresh', 'locked', 'default', 'RUNNING', now())")) {
				insert.executeUpdate();
			}
			this.proxy.partition();

			// node b, which the partition does not touch, signals the run and starts the
			// id: its
			// statements wait on a's locks only until the server ends a's silent
			// transaction
			b.client().handle("held").signal("go", "from b");
			WorkflowHandle<String> fresh = b.client()
				.start(WaitingWorkflow::run, "fresh", StartOptions.withId("fresh"));
			b.client().handle("fresh").signal("go", "fresh from b");
			assertThat(fresh.result(Duration.ofSeconds(60))).isEqualTo("fresh from b");
			// a's runs are b's once a is dead: the signal got through
			assertThat(b.client().handle(held.workflowId(), String.class).result(Duration.ofSeconds(60)))
				.isEqualTo("from b");
		}
		finally {
			open.abort(Runnable::run);
		}
	}

}
