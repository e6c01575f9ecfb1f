package dev.durable.workflow.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Runs outlive the node that started them: restarts, and several nodes sharing one
 * database.
 */
class TakeoverTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Remembers which node executed each step. */
	@Activity
	public static class Recorder {

		static final Map<String, List<String>> EXECUTIONS = new ConcurrentHashMap<>();

		private final String node;

		public Recorder(String node) {
			this.node = node;
		}

		public String record(String workflowId, String step) {
			EXECUTIONS
				.computeIfAbsent(workflowId + "/" + step, (k) -> new java.util.concurrent.CopyOnWriteArrayList<>())
				.add(this.node);
			return step + "@" + this.node;
		}

	}

	/** One step, a long sleep, another step. */
	@Workflow("sleepy")
	public static class SleepyWorkflow {

		private final Recorder recorder;

		public SleepyWorkflow(Recorder recorder) {
			this.recorder = recorder;
		}

		@WorkflowRun
		public String run(String id) {
			String before = this.recorder.record(id, "before");
			Workflows.sleep(Duration.ofDays(30));
			return before + " " + this.recorder.record(id, "after");
		}

	}

	private WorkflowEngine node(String name) {
		return this.engines
			.start(this.engines.builder().register(SleepyWorkflow.class).registerActivities(new Recorder(name)));
	}

	@Test
	void timerSurvivesARestart() {
		WorkflowEngine first = node("first");
		WorkflowHandle<String> handle = first.client()
			.start(SleepyWorkflow::run, "restart-1", StartOptions.withId("restart-1"));
		await().until(() -> this.engines.count("timer") == 1);
		first.shutdown();
		WorkflowEngine second = node("second");
		this.engines.clock.advance(Duration.ofDays(30));
		// the result through the serving node: the stopped one is not told when the run
		// closes
		assertThat(second.client().handle("restart-1", String.class).result(Duration.ofSeconds(10)))
			.isEqualTo("before@first after@second");
		Engines.assertReplays(second, handle.runId());
	}

	@Test
	void aShutdownReleasesItsOpenRunsAndWritesNoClosedOne() {
		WorkflowEngine node = node("leaving");
		WorkflowHandle<String> closed = node.client()
			.start(SleepyWorkflow::run, "done-1", StartOptions.withId("done-1"));
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofDays(30));
		assertThat(closed.result(Duration.ofSeconds(10))).isEqualTo("before@leaving after@leaving");
		WorkflowHandle<String> open = node.client().start(SleepyWorkflow::run, "open-1", StartOptions.withId("open-1"));
		await().until(() -> this.engines.count("timer") == 1);
		String row = "SELECT xmin::text || '/' || coalesce(owner_node::text, '-') FROM " + this.engines.schema
				+ ".workflow_run WHERE run_id = ?";
		String closedBefore = this.engines.jdbc().queryForObject(row, String.class, closed.runId());
		assertThat(closedBefore).endsWith(EngineInternals.node(node).nodeId().toString());

		node.shutdown();
		// the open run is free for the next node; the closed one's row was not rewritten
		assertThat(this.engines.jdbc().queryForObject(row, String.class, open.runId())).endsWith("/-");
		assertThat(this.engines.jdbc().queryForObject(row, String.class, closed.runId())).isEqualTo(closedBefore);
	}

	@Test
	void nodesOnOneDatabaseShareTheRuns() {
		WorkflowEngine a = node("a");
		WorkflowEngine b = node("b");
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false));
		List<WorkflowHandle<String>> handles = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			String id = "shared-" + i;
			WorkflowHandle<String> handle = client.client().start(SleepyWorkflow::run, id, StartOptions.withId(id));
			handles.add(handle);
			try {
				await().until(() -> handle.describe().workflowTasks() == 2);
			}
			catch (RuntimeException ex) {
				System.out.println("STUCK " + id + " " + handle.describe() + " " + this.engines.jdbc()
					.queryForList("SELECT * FROM " + this.engines.schema + ".workflow_run WHERE workflow_id = ?", id));
				throw ex;
			}
		}
		this.engines.clock.advance(Duration.ofDays(30));
		List<UUID> owners = new ArrayList<>();
		for (WorkflowHandle<String> handle : handles) {
			// keep time moving while waiting: a node slowed down by the load may lose its
			// runs to the
			// other one, whose retry of the interrupted step then waits for its backoff
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				this.engines.clock.advance(Duration.ofSeconds(1));
				return handle.describe().status().isClosed();
			});
			String result = handle.result(Duration.ofSeconds(20));
			assertThat(result).matches("before@(a|b) after@(a|b)");
			owners.add(handle.runId());
		}
		assertThat(handles).allSatisfy((h) -> {
			assertThat(Recorder.EXECUTIONS.get(h.workflowId() + "/before")).hasSizeBetween(1, 2);
			assertThat(Recorder.EXECUTIONS.get(h.workflowId() + "/after")).hasSizeBetween(1, 2);
		});
		List<String> executors = handles.stream()
			.map((h) -> Recorder.EXECUTIONS.get(h.workflowId() + "/before").get(0))
			.distinct()
			.toList();
		assertThat(executors).containsExactlyInAnyOrder("a", "b");
		Engines.assertReplays(a, owners.get(0));
	}

	@Test
	void otherNodesAreWokenByNotificationsNotByPolling() {
		WorkflowEngine worker = this.engines.start(this.engines.builder()
			.register(SleepyWorkflow.class)
			.registerActivities(new Recorder("worker"))
			.pollInterval(Duration.ofHours(1)));
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false));
		WorkflowHandle<String> handle = client.client()
			.start(SleepyWorkflow::run, "notified", StartOptions.withId("notified"));
		// the worker polls once an hour: only the notification can have told it
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engines.count("timer") == 1);
		assertThat(handle.describe().workflowTasks()).isEqualTo(2);
		client.client().handle("notified").cancel("from another node");
		await().atMost(Duration.ofSeconds(10)).until(() -> handle.describe().status().isClosed());
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.CANCELED);
		Engines.assertReplays(worker, handle.runId());
	}

}
