package dev.durable.workflow.message;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.QueryFailedException;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Queries (DESIGN 4.1 and 4.2): read committed state, never add history, answered by the
 * live cached instance or by a read-only replay on any node that knows the type, open or
 * closed; a query that tries to block fails and changes nothing.
 */
@Timeout(120)
class QueryTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Steps {

		public String step(String name) {
			return name + " done";
		}

	}

	/** Waits for "go", runs a step, collects notes until "finish". */
	@Workflow(value = "q-notes", receives = { "go" })
	public static class Notes {

		/**
		 * Instances created: a query answered by replay creates one, the live instance
		 * does not.
		 */
		static final AtomicInteger INSTANCES = new AtomicInteger();

		private final Steps steps;

		private final List<String> notes = new ArrayList<>();

		private String stage = "created";

		private boolean finished;

		public Notes(Steps steps) {
			this.steps = steps;
			INSTANCES.incrementAndGet();
		}

		@WorkflowRun
		public List<String> run() {
			this.stage = "waiting";
			String go = Workflows.receive("go", String.class);
			this.stage = "working";
			this.notes.add(this.steps.step(go));
			Workflows.await(() -> this.finished);
			this.stage = "finished";
			return this.notes;
		}

		@SignalMethod
		public void add(String note) {
			this.notes.add(note);
		}

		@SignalMethod
		public void finish() {
			this.finished = true;
		}

		@QueryMethod
		public String stage() {
			return this.stage;
		}

		@QueryMethod
		public List<String> notes() {
			return this.notes;
		}

		@QueryMethod
		public String noteAt(int index) {
			return (index < this.notes.size()) ? this.notes.get(index) : "none";
		}

		@QueryMethod
		public String sleepy() {
			Workflows.sleep(Duration.ofMinutes(1));
			return "slept";
		}

		@QueryMethod
		public String busy() {
			return this.steps.step("from a query");
		}

		@QueryMethod
		public String sideEffecting() {
			return Workflows.sideEffect(String.class, () -> "effect");
		}

	}

	private WorkflowEngine worker() {
		return worker(this.engines.builder());
	}

	private WorkflowEngine worker(WorkflowEngine.Builder builder) {
		return this.engines.start(builder.register(Notes.class).registerActivities(new Steps()));
	}

	/** A node that knows the type but runs nothing: it answers queries by replay only. */
	private WorkflowEngine reader() {
		return this.engines
			.start(this.engines.builder().register(Notes.class).registerActivities(new Steps()).worker(false));
	}

	private WorkflowHandle<List<String>> startWaiting(WorkflowEngine engine, String id) {
		WorkflowHandle<List<String>> handle = engine.client().start(Notes::run, StartOptions.withId(id));
		await().until(() -> handle.describe().workflowTasks() == 1);
		return handle;
	}

	private String owner(WorkflowHandle<?> handle) {
		return this.engines.jdbc()
			.queryForObject("SELECT owner_node::text FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?",
					String.class, handle.runId());
	}

	@Test
	void aQueryRightAfterAStartWaitsForTheFirstWorkflowTask() throws Exception {
		// started from a node that does not run workflows: no task runs until a worker
		// comes
		WorkflowEngine reader = reader();
		WorkflowHandle<List<String>> handle = reader.client().start(Notes::run, StartOptions.withId("just-started"));
		java.util.concurrent.CompletableFuture<String> stage = java.util.concurrent.CompletableFuture
			.supplyAsync(() -> handle.query(Notes::stage));
		worker();
		assertThat(stage.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("waiting");
	}

	@Test
	void queriesNeverAddHistoryEvents() {
		WorkflowEngine engine = worker();
		WorkflowEngine reader = reader();
		WorkflowHandle<List<String>> handle = startWaiting(engine, "no-events");
		handle.signal(Notes::add, "first");
		await().until(() -> handle.query(Notes::notes).size() == 1);
		int events = handle.history().size();
		int tasks = handle.describe().workflowTasks();
		for (int i = 0; i < 10; i++) {
			assertThat(handle.query(Notes::stage)).isEqualTo("waiting");
			assertThat(handle.query(Notes::noteAt, 0)).isEqualTo("first");
			assertThat(reader.client().handle("no-events").query("notes", null, List.class)).containsExactly("first");
		}
		assertThat(handle.history()).hasSize(events);
		assertThat(handle.describe().workflowTasks()).isEqualTo(tasks);
		assertThat(this.engines.count("inbox")).isZero();
		assertThat(owner(handle)).isEqualTo(engine.nodeId().toString());
		handle.signal("go", "step");
		handle.signal(Notes::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("first", "step done");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aQueryIsAnsweredByTheLiveCachedInstance() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = startWaiting(engine, "live");
		int instances = Notes.INSTANCES.get();
		assertThat(handle.query(Notes::stage)).isEqualTo("waiting");
		handle.signal(Notes::add, "fresh");
		await().until(() -> handle.describe().workflowTasks() == 2);
		assertThat(handle.query(Notes::notes)).containsExactly("fresh");
		assertThat(Notes.INSTANCES.get()).as("no replay was needed").isEqualTo(instances);
		handle.signal("go", "step");
		await().until(() -> handle.history().stream().anyMatch((e) -> e.type().equals("ACTIVITY_COMPLETED")));
		assertThat(handle.query(Notes::stage)).isEqualTo("working");
		assertThat(handle.query(Notes::notes)).containsExactly("fresh", "step done");
		assertThat(Notes.INSTANCES.get()).isEqualTo(instances);
		handle.signal(Notes::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("fresh", "step done");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aNodeThatDoesNotOwnTheRunAnswersByReplayingCommittedHistory() {
		WorkflowEngine engine = worker();
		WorkflowEngine reader = reader();
		WorkflowHandle<List<String>> handle = startWaiting(engine, "replayed");
		WorkflowHandle<Object> remote = reader.client().handle("replayed");
		handle.signal(Notes::add, "one");
		await().until(() -> handle.query(Notes::notes).size() == 1);

		int instances = Notes.INSTANCES.get();
		assertThat(remote.query(Notes::notes)).containsExactly("one");
		assertThat(Notes.INSTANCES.get()).as("replayed on a fresh instance").isEqualTo(instances + 1);
		assertThat(remote.query(Notes::stage)).isEqualTo("waiting");
		assertThat(Notes.INSTANCES.get()).as("the replay is cached while history is unchanged")
			.isEqualTo(instances + 1);

		handle.signal(Notes::add, "two");
		await().until(() -> remote.query(Notes::notes).size() == 2);
		assertThat(remote.query(Notes::notes)).containsExactly("one", "two");
		assertThat(owner(handle)).isEqualTo(engine.nodeId().toString());

		handle.signal("go", "step");
		handle.signal(Notes::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("one", "two", "step done");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aQueryDuringATaskSeesOnlyCommittedState() throws Exception {
		StallingHooks hooks = new StallingHooks();
		hooks.stallCommitNumber = 2;
		WorkflowEngine engine = worker(this.engines.builder().hooks(hooks));
		WorkflowHandle<List<String>> handle = startWaiting(engine, "committed-only");
		handle.signal(Notes::add, "not yet committed");
		assertThat(hooks.commitStalled.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(handle.query(Notes::notes)).isEmpty();
		hooks.release();
		await().until(() -> handle.query(Notes::notes).size() == 1);
		handle.signal("go", "step");
		handle.signal(Notes::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("not yet committed", "step done");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void closedRunsCanBeQueried() {
		WorkflowEngine engine = worker();
		WorkflowEngine reader = reader();
		WorkflowHandle<List<String>> completed = startWaiting(engine, "closed-completed");
		completed.signal(Notes::add, "kept");
		completed.signal("go", "step");
		completed.signal(Notes::finish);
		assertThat(completed.result(Duration.ofSeconds(10))).containsExactly("kept", "step done");
		assertThat(completed.query(Notes::stage)).isEqualTo("finished");
		assertThat(completed.query(Notes::notes)).containsExactly("kept", "step done");
		assertThat(reader.client().handle("closed-completed").query("stage", null, String.class)).isEqualTo("finished");

		WorkflowHandle<List<String>> terminated = startWaiting(engine, "closed-terminated");
		terminated.signal("go", "step");
		await().until(() -> terminated.query(Notes::stage).equals("working"));
		terminated.terminate("enough");
		assertThat(terminated.describe().status()).isEqualTo(WorkflowStatus.TERMINATED);
		// the state as it was when the run was terminated
		assertThat(terminated.query(Notes::stage)).isEqualTo("working");
		assertThat(terminated.query(Notes::notes)).containsExactly("step done");
		assertThat(reader.client().handle("closed-terminated").query("noteAt", 0, String.class)).isEqualTo("step done");
		Engines.assertReplays(engine, completed.runId());
		Engines.assertReplays(engine, terminated.runId());
	}

	@Test
	void aQueryThatSleepsFailsAndChangesNothing() {
		WorkflowEngine engine = worker();
		WorkflowEngine reader = reader();
		WorkflowHandle<List<String>> handle = startWaiting(engine, "sleepy-query");
		int events = handle.history().size();
		assertThatThrownBy(() -> handle.query(Notes::sleepy)).isInstanceOf(QueryFailedException.class);
		assertThatThrownBy(() -> reader.client().handle("sleepy-query").query("sleepy", null, String.class))
			.isInstanceOf(QueryFailedException.class);
		assertThat(handle.history()).hasSize(events);
		assertThat(this.engines.count("timer")).isZero();
		assertThat(handle.query(Notes::stage)).isEqualTo("waiting");
		handle.signal("go", "step");
		handle.signal(Notes::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("step done");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aQueryThatCallsAnActivityFailsAndChangesNothing() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = startWaiting(engine, "busy-query");
		int events = handle.history().size();
		// against the live instance: the run's own next command must not be affected
		assertThatThrownBy(() -> handle.query(Notes::busy)).isInstanceOf(QueryFailedException.class);
		assertThat(handle.history()).hasSize(events);
		assertThat(this.engines.count("activity")).isZero();
		handle.signal("go", "step");
		handle.signal(Notes::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("step done");
		assertThat(handle.history()).filteredOn((e) -> e.type().equals("ACTIVITY_SCHEDULED"))
			.singleElement()
			.satisfies((e) -> assertThat(e.attributes().get("seq")).as("sequence number of the run's first command")
				.isEqualTo(1L));
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aQueryThatRecordsASideEffectFailsAndChangesNothing() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = startWaiting(engine, "side-effect-query");
		int events = handle.history().size();
		assertThatThrownBy(() -> handle.query(Notes::sideEffecting)).isInstanceOf(QueryFailedException.class);
		assertThat(handle.history()).hasSize(events);
		handle.signal("go", "step");
		handle.signal(Notes::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("step done");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void anUnknownQueryNameIsRejected() {
		WorkflowEngine engine = worker();
		WorkflowEngine reader = reader();
		WorkflowEngine stranger = this.engines.start(this.engines.builder().worker(false));
		WorkflowHandle<List<String>> handle = startWaiting(engine, "unknown-query");
		assertThatThrownBy(() -> handle.query("nope", null, String.class)).isInstanceOf(UnknownHandlerException.class)
			.hasMessageContaining("nope");
		assertThatThrownBy(() -> reader.client().handle("unknown-query").query("nope", null, String.class))
			.isInstanceOf(UnknownHandlerException.class);
		// a node that does not know the workflow type cannot replay it to answer
		assertThatThrownBy(() -> stranger.client().handle("unknown-query").query("stage", null, String.class))
			.isInstanceOf(QueryFailedException.class)
			.hasMessageContaining("not registered");
		handle.signal("go", "step");
		handle.signal(Notes::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("step done");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aQueryTakesAnArgument() {
		WorkflowEngine engine = worker();
		WorkflowEngine reader = reader();
		WorkflowHandle<List<String>> handle = startWaiting(engine, "with-argument");
		handle.signal(Notes::add, "zero");
		handle.signal(Notes::add, "one");
		await().until(() -> handle.query(Notes::notes).size() == 2);
		assertThat(handle.query(Notes::noteAt, 1)).isEqualTo("one");
		assertThat(handle.query(Notes::noteAt, 5)).isEqualTo("none");
		assertThat(handle.query("noteAt", 0, String.class)).isEqualTo("zero");
		assertThat(reader.client().handle("with-argument").query("noteAt", 1, String.class)).isEqualTo("one");
		handle.signal("go", "step");
		handle.signal(Notes::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("zero", "one", "step done");
		Engines.assertReplays(engine, handle.runId());
	}

}
