package dev.durable.workflow.fault;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.dao.DataAccessResourceFailureException;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.PartitionProxy;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A node cut off from its database by a partition that drops packets (no connection is
 * reset) for longer than {@code deadAfter} stops by itself once its lease runs out: it
 * evicts its runs, claims and commits nothing, and its client fails at once as with the
 * database unreachable, instead of hanging; another node takes its runs over and nothing
 * runs twice. Healed, the node serves again, and nothing it held before the partition is
 * written.
 */
class PartitionedNodeSelfFencingTest {

	private static final Duration DEAD_AFTER = Duration.ofSeconds(3);

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

	/** Remembers which node ran each step. */
	@Activity
	public static class Steps {

		static final Map<String, List<String>> RAN = new ConcurrentHashMap<>();

		private final String node;

		public Steps(String node) {
			this.node = node;
		}

		public String step(String workflowId, String name) {
			RAN.computeIfAbsent(workflowId + "/" + name, (key) -> new CopyOnWriteArrayList<>()).add(this.node);
			return name + "@" + this.node;
		}

	}

	/** A step, a day's sleep, another step. */
	@Workflow("partitioned")
	public static class DayWorkflow {

		private final Steps steps;

		public DayWorkflow(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(String id) {
			String before = this.steps.step(id, "before");
			Workflows.sleep(Duration.ofDays(1));
			return before + " " + this.steps.step(id, "after");
		}

	}

	private WorkflowEngine.Builder node(String name) {
		// both nodes judge staleness alike; the heartbeat interval leaves a lease of 2.75
		// s
		return this.engines.builder()
			.register(DayWorkflow.class)
			.registerActivities(new Steps(name))
			.heartbeatInterval(Duration.ofMillis(250))
			.deadAfter(DEAD_AFTER);
	}

	private List<Map<String, Object>> history() {
		return this.engines.jdbc()
			.queryForList("SELECT run_id, seq, events FROM " + this.engines.schema + ".history ORDER BY run_id, seq");
	}

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void aPartitionedNodeStopsByItselfAnswersAtOnceAndServesAgainWhenHealed() {
		Steps.RAN.clear();
		this.proxy = new PartitionProxy(TestDatabase.postgres().getPort());
		// the application's pool as configured by default (30 s to wait for a connection)
		this.partitionedPool = TestDatabase
			.pool("jdbc:postgresql://127.0.0.1:" + this.proxy.port() + "/postgres?user=postgres", 4);
		WorkflowEngine a = this.engines.start(node("a").dataSource(this.partitionedPool));
		List<String> ids = List.of("cut-1", "cut-2", "cut-3");
		for (String id : ids) {
			a.client().start(DayWorkflow::run, id, StartOptions.withId(id));
		}
		await().until(() -> this.engines.count("timer") == ids.size());
		await().until(() -> a.cachedRuns() == ids.size());

		this.proxy.partition();
		WorkflowEngine b = this.engines.start(node("b"));
		this.engines.clock.advance(Duration.ofDays(1));

		// a's lease runs out: it evicts its runs by itself, though it cannot learn it was
		// declared dead
		await().atMost(Duration.ofSeconds(30)).until(() -> a.cachedRuns() == 0);
		// and a call through it fails at once, as with the database unreachable, instead
		// of hanging
		assertTimeoutPreemptively(Duration.ofSeconds(5),
				() -> assertThatThrownBy(() -> a.client().handle(ids.get(0)).describe())
					.isInstanceOf(DataAccessResourceFailureException.class));

		// b takes the runs over and finishes them; every step ran once
		for (String id : ids) {
			WorkflowHandle<String> handle = b.client().handle(id, String.class);
			assertThat(handle.result(Duration.ofSeconds(60))).isEqualTo("before@a after@b");
			assertThat(Steps.RAN.get(id + "/before")).containsExactly("a");
			assertThat(Steps.RAN.get(id + "/after")).containsExactly("b");
		}
		List<Map<String, Object>> settled = history();

		// healed, a registers anew and serves its callers again
		this.proxy.heal();
		await().atMost(Duration.ofSeconds(60))
			.ignoreExceptions()
			.until(() -> this.engines.jdbc()
				.queryForObject("SELECT incarnation FROM " + this.engines.schema + ".node WHERE node_id = ?",
						Long.class, a.nodeId()) >= 2);
		WorkflowHandle<String> after = await().atMost(Duration.ofSeconds(60))
			.ignoreExceptions()
			.until(() -> a.client().start(DayWorkflow::run, "healed", StartOptions.withId("healed")), (h) -> true);
		await().atMost(Duration.ofSeconds(60)).until(() -> {
			this.engines.clock.advance(Duration.ofDays(1));
			return after.describe().status().isClosed();
		});
		assertThat(after.result(Duration.ofSeconds(10))).matches("before@(a|b) after@(a|b)");
		// nothing a held from before the partition was written: the runs b finished are
		// as b left them
		assertThat(history().stream().filter((row) -> !row.get("run_id").equals(after.runId())).toList())
			.usingRecursiveComparison()
			.isEqualTo(settled);
		for (String id : ids) {
			assertThat(Steps.RAN.get(id + "/before")).containsExactly("a");
			assertThat(Steps.RAN.get(id + "/after")).containsExactly("b");
		}
	}

}
