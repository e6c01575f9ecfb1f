package dev.durable.workflow.start;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StatementRecorder;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Which starts are eager (the first task commits with the start) and which leave that
 * task to a worker.
 */
class EagerStartTest extends EagerStartFixture {

	// ---- the first task commits with the start
	// -------------------------------------------------

	@Test
	void aLocalStartCommitsItsFirstTaskWithTheStart() {
		CommitHooks hooks = new CommitHooks();
		Steps steps = new Steps();
		StatementRecorder recorder = new StatementRecorder(TestDatabase.dataSource());
		// without session settings: they are sent once on each physical connection the
		// engine takes
		// first (whichever statement that is), not with every start
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.dataSource(recorder.dataSource())
			.idleInTransactionTimeout(Duration.ZERO)
			.register(Sleeper.class)
			.registerActivities(steps)
			.hooks(hooks));
		int before = recorder.of(Thread.currentThread()).size();
		WorkflowHandle<String> handle = engine.client().start(Sleeper::run, "ada", StartOptions.withId("eager-1"));
		List<String> started = recorder.of(Thread.currentThread())
			.stream()
			.skip(before)
			.map(StatementRecorder.Statement::sql)
			.toList();
		// the run's rows and its first task's as one statement: no look-up of earlier
		// runs (the
		// unique index refuses a duplicate) and nothing read back
		String schema = this.engines.schema;
		assertThat(started).as("statements of the start").hasSize(1);
		assertThat(started.get(0)).startsWith("WITH u AS (INSERT INTO " + schema + ".workflow_run ")
			.contains("INSERT INTO " + schema + ".run_payload ", "INSERT INTO " + schema + ".visibility ",
					"INSERT INTO " + schema + ".history ", "INSERT INTO " + schema + ".timer ");

		// no waiting: when start returns, its first task has committed, on the caller's
		// thread
		assertThat(hooks.threads).containsExactly(Thread.currentThread());
		assertThat(handle.describe().workflowTasks()).isEqualTo(1);
		assertThat(types(handle)).containsSubsequence("WORKFLOW_STARTED", "TIMER_STARTED");
		assertThat(this.engines.count("timer")).isEqualTo(1);
		Map<String, Object> row = runRow(handle.runId());
		assertThat(row.get("owner_node")).isEqualTo(engine.nodeId());
		assertThat(row.get("epoch")).isEqualTo(1L);
		assertThat(row.get("history_seq")).isEqualTo(1);
		// the node holds the run from its first task on
		assertThat(EngineInternals.node(engine).holdsRun(handle.runId())).isTrue();

		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("step ada");
		assertThat(steps.calls).hasValue(1);
		assertThat(hooks.threads).hasSize(3);
		assertThat(types(handle)).filteredOn("TIMER_STARTED"::equals).hasSize(1);
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- starts that are not eager
	// ---------------------------------------------------------------

	@Test
	void aStartFromAClientOnlyNodeLeavesTheFirstTaskToAWorker() throws Exception {
		CommitHooks hooks = new CommitHooks();
		hooks.stallCommitNumber = 1;
		WorkflowEngine worker = worker(hooks);
		// the client node knows the workflow class, but does not work
		CommitHooks clientHooks = new CommitHooks();
		WorkflowEngine client = this.engines.start(this.engines.builder()
			.worker(false)
			.register(Sleeper.class)
			.registerActivities(new Steps())
			.hooks(clientHooks));
		WorkflowHandle<String> handle = client.client().start(Sleeper::run, "bob", StartOptions.withId("from-client"));
		assertThat(clientHooks.threads).isEmpty();

		// the start wrote the run only; the client node holds nothing
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
		assertThat(this.engines.count("history")).isZero();
		assertThat(client.cachedRuns()).isZero();
		// the worker runs the first task, on its own thread
		assertThat(hooks.stalled.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(hooks.threads).hasSize(1).doesNotContain(Thread.currentThread());
		assertThat(handle.describe().workflowTasks()).isZero();
		hooks.release.countDown();

		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("step bob");
		assertThat(hooks.threads).doesNotContain(Thread.currentThread());
		assertThat(clientHooks.threads).isEmpty();
		Engines.assertReplays(worker, handle.runId());
	}

	@Test
	void aStartThatCarriesMoreThanTheRunIsNotEager() {
		CommitHooks hooks = new CommitHooks();
		WorkflowEngine engine = worker(hooks);
		Thread caller = Thread.currentThread();
		WorkflowHandle<String> delayed = engine.client()
			.start(Waiter::run, "delayed",
					StartOptions.builder().workflowId("delayed").startDelay(Duration.ofMinutes(1)).build());
		WorkflowHandle<String> withMemo = engine.client()
			.start(Waiter::run, "memo", StartOptions.builder().workflowId("memo").memo(Map.of("k", "v")).build());
		WorkflowHandle<String> withAttributes = engine.client()
			.start(Waiter::run, "attributes",
					StartOptions.builder().workflowId("attributes").searchAttributes(Map.of("region", "eu")).build());
		WorkflowHandle<String> signalled = engine.client()
			.signalWithStart(Waiter::run, "signalled", StartOptions.withId("signalled"), "go", "now");
		WorkflowHandle<String> otherQueue = engine.client()
			.start(Waiter::run, "queue",
					StartOptions.builder().workflowId("other-queue").taskQueue("elsewhere").build());
		assertThat(hooks.threads).as("no task committed on the caller's thread").doesNotContain(caller);

		// they run the ordinary way
		assertThat(signalled.result(Duration.ofSeconds(10))).isEqualTo("signalled now");
		await().until(() -> withMemo.describe().workflowTasks() == 1 && withAttributes.describe().workflowTasks() == 1);
		withMemo.signal("go", "m");
		withAttributes.signal("go", "a");
		assertThat(withMemo.result(Duration.ofSeconds(10))).isEqualTo("memo m");
		assertThat(withAttributes.result(Duration.ofSeconds(10))).isEqualTo("attributes a");
		assertThat(delayed.describe().workflowTasks()).isZero();
		this.engines.clock.advance(Duration.ofMinutes(1));
		await().until(() -> delayed.describe().workflowTasks() == 1);
		delayed.signal("go", "d");
		assertThat(delayed.result(Duration.ofSeconds(10))).isEqualTo("delayed d");
		// no node serves that queue: the run waits, untouched
		assertThat(otherQueue.describe().workflowTasks()).isZero();
		assertThat(otherQueue.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(hooks.threads).doesNotContain(caller);
		for (WorkflowHandle<String> handle : List.of(delayed, withMemo, withAttributes, signalled)) {
			Engines.assertReplays(engine, handle.runId());
		}
	}

	// ---- a start inside the caller's own transaction
	// ---------------------------------------------

	private TransactionTemplate callersTransaction() {
		return new TransactionTemplate(new DataSourceTransactionManager(TestDatabase.dataSource()));
	}

	@Test
	void aStartInACallersTransactionThatRollsBackRunsNothing() {
		Steps steps = new Steps();
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(OneStep.class).registerActivities(steps));
		callersTransaction().executeWithoutResult((status) -> {
			engine.client().start(OneStep::run, "phantom", StartOptions.withId("rolled-back"));
			status.setRollbackOnly();
		});
		assertNoRows("workflow_run", "history", "activity");
		// nothing may happen: wait a little to see that nothing does
		await("no step run").during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(2))
			.until(() -> steps.calls.get() == 0);
		assertThat(engine.cachedRuns()).isZero();
	}

	@Test
	void aStartInACallersTransactionRunsItsFirstStepOnceAfterTheCommit() {
		Steps steps = new Steps();
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(OneStep.class).registerActivities(steps));
		WorkflowHandle<String> handle = callersTransaction().execute((status) -> {
			WorkflowHandle<String> started = engine.client()
				.start(OneStep::run, "joined", StartOptions.withId("joined"));
			// the caller's transaction goes on a while: its step must not run before it
			// commits
			await("no step run").during(Duration.ofMillis(500))
				.atMost(Duration.ofSeconds(2))
				.until(() -> steps.calls.get() == 0);
			return started;
		});
		// the engine clock does not move: a lost attempt would wait for its retry forever
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("step joined");
		assertThat(steps.calls).hasValue(1);
		Engines.assertReplays(engine, handle.runId());
	}

}
