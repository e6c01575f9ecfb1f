package dev.durable.workflow.message;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.TestDatabase;
import dev.durable.workflow.support.TransactionRecorder;
import dev.durable.workflow.support.TransactionRecorder.End;
import dev.durable.workflow.support.TransactionRecorder.Transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A signal through the handle a start returned: the handle knows the workflow type, so
 * one statement finds the latest run of the id and sends to it if it is open and of that
 * type. A closed run, a run of another type under a reused id, or a name the type does
 * not take go the way of any handle (the run read first), with the same outcome.
 */
class StartedHandleSignalTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Returns what its first "go" carried. */
	@Workflow(value = "started-signal", receives = { "go" })
	public static class Receiving {

		@WorkflowRun
		public String run() {
			return Workflows.receive("go", String.class);
		}

	}

	/**
	 * Continues as new at each "go" until round 2, then returns the round and the last
	 * "go".
	 */
	@Workflow(value = "started-signal-chain", receives = { "go" })
	public static class Chain {

		@WorkflowRun
		public String run(int round) {
			String go = Workflows.receive("go", String.class);
			if (round < 2) {
				Workflows.continueAsNew(round + 1);
				throw new IllegalStateException("continueAsNew returned");
			}
			return round + " " + go;
		}

	}

	/**
	 * Another type, which takes none of Receiving's names; the id of a closed Receiving
	 * is reused for it.
	 */
	@Workflow(value = "started-signal-other", receives = { "only-other", "ping" })
	public static class Other {

		@WorkflowRun
		public String run() {
			return Workflows.receive("only-other", String.class) + " " + Workflows.receive("ping", String.class);
		}

	}

	private static boolean looksUp(String statement) {
		return statement.contains("ORDER BY created_at DESC");
	}

	private void parked(WorkflowEngine engine, int histories) {
		await().until(() -> this.engines.count("history") == histories && EngineInternals.node(engine).isIdle());
	}

	private int historyOf(UUID runId) {
		return this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".history WHERE run_id = ?", Integer.class,
					runId);
	}

	private Map<String, Object> runState() {
		return this.engines.jdbc()
			.queryForMap("SELECT inbox_seq, pending_input FROM " + this.engines.schema + ".workflow_run");
	}

	@Test
	void aStartedHandleFindsTheRunAndSendsInOneStatement() {
		TransactionRecorder recorder = new TransactionRecorder(TestDatabase.dataSource());
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.dataSource(recorder.dataSource())
			// the statements counted are the engine's own: no once-per-connection session
			// settings among them
			.idleInTransactionTimeout(Duration.ZERO)
			.register(Receiving.class));
		WorkflowHandle<String> handle = engine.client().start(Receiving::run, StartOptions.withId("one"));
		parked(engine, 1);

		List<Transaction> sent = recorder.during(() -> handle.signal("go", "now"));

		// one statement alone, which looks the run up and sends: no read of the run
		// before it
		assertThat(sent).singleElement().satisfies((t) -> {
			assertThat(t.end()).isEqualTo(End.AUTOCOMMIT);
			assertThat(t.statements()).singleElement().asString().satisfies((sql) -> {
				assertThat(SignalSendStatementTest.sends(sql)).isTrue();
				assertThat(looksUp(sql)).isTrue();
			});
		});
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("now");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aSignalAfterAContinueAsNewGoesToTheLatestRun() {
		TransactionRecorder recorder = new TransactionRecorder(TestDatabase.dataSource());
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.dataSource(recorder.dataSource())
			// the statements counted are the engine's own: no once-per-connection session
			// settings among them
			.idleInTransactionTimeout(Duration.ZERO)
			.register(Chain.class));
		WorkflowHandle<String> handle = engine.client().start(Chain::run, 1, StartOptions.withId("chain"));
		parked(engine, 1);
		handle.signal("go", "first");
		await().until(() -> !engine.client().handle("chain").runId().equals(handle.runId())
				&& historyOf(engine.client().handle("chain").runId()) > 0 && EngineInternals.node(engine).isIdle());

		// the handle's run continued as new: the statement finds the new one, of the same
		// type
		List<Transaction> sent = recorder.during(() -> handle.signal("go", "second"));

		assertThat(sent).singleElement().satisfies((t) -> assertThat(t.statements()).hasSize(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("2 second");
		Engines.assertReplays(engine, engine.client().handle("chain").runId());
	}

	@Test
	void aSignalToAClosedRunWritesNothingAndSaysItIsClosed() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(Receiving.class));
		WorkflowHandle<String> handle = engine.client().start(Receiving::run, StartOptions.withId("closed"));
		parked(engine, 1);
		handle.terminate("closed first");
		Map<String, Object> before = runState();

		assertThatExceptionOfType(WorkflowClosedException.class).isThrownBy(() -> handle.signal("go", "late"))
			.withMessageContaining("TERMINATED");

		assertThat(this.engines.count("inbox")).isZero();
		assertThat(runState()).isEqualTo(before);
	}

	@Test
	void aNameTheTypeDoesNotTakeIsRejectedBeforeAnythingIsWritten() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(Receiving.class));
		WorkflowHandle<String> handle = engine.client().start(Receiving::run, StartOptions.withId("typo"));
		parked(engine, 1);
		Map<String, Object> before = runState();

		assertThatExceptionOfType(UnknownHandlerException.class).isThrownBy(() -> handle.signal("og", "typo"))
			.withMessageContaining("og");

		assertThat(this.engines.count("inbox")).isZero();
		assertThat(runState()).isEqualTo(before);
		handle.signal("go", "right");
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("right");
	}

	@Test
	void aRunOfAnotherTypeUnderAReusedIdGetsOnlyTheSignalsItTakes() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(Receiving.class, Other.class));
		WorkflowHandle<String> first = engine.client().start(Receiving::run, StartOptions.withId("reused"));
		parked(engine, 1);
		first.terminate("make room");
		WorkflowHandle<String> other = engine.client().start(Other::run, StartOptions.withId("reused"));

		// "go" is the first handle's type's name, not Other's: the statement's type check
		// sends
		// nothing, and the send by the latest run's read refuses it
		assertThatExceptionOfType(UnknownHandlerException.class).isThrownBy(() -> first.signal("go", "wrong"))
			.withMessageContaining("started-signal-other");
		assertThat(this.engines.count("inbox")).isZero();

		// names only Other takes go by the latest run's read, typed for Other
		first.signal("only-other", "taken");
		first.signal("ping", "too");
		assertThat(other.result(Duration.ofSeconds(10))).isEqualTo("taken too");
		Engines.assertReplays(engine, other.runId());
	}

	@Test
	void aRunHeldByAnotherNodeIsWokenThere() {
		WorkflowEngine worker = this.engines.start(this.engines.builder().register(Receiving.class));
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false));
		WorkflowHandle<Object> handle = client.client().start("started-signal", null, StartOptions.withId("remote"));
		await().until(() -> EngineInternals.node(worker).holdsRun(handle.runId()));
		parked(worker, 1);

		handle.signal("go", "from afar");

		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("from afar");
		Engines.assertReplays(worker, handle.runId());
	}

	@Test
	void aRunWhoseNodeStoppedIsTakenUpByAnother() {
		WorkflowEngine first = this.engines.start(this.engines.builder().register(Receiving.class));
		WorkflowHandle<String> handle = first.client().start(Receiving::run, StartOptions.withId("moved"));
		parked(first, 1);
		first.shutdown(); // gives its runs back
		WorkflowEngine second = this.engines.start(this.engines.builder().register(Receiving.class));

		handle.signal("go", "after the stop"); // the stopped node's client still sends

		assertThat(second.client().handle("moved", String.class).result(Duration.ofSeconds(10)))
			.isEqualTo("after the stop");
		Engines.assertReplays(second, handle.runId());
	}

}
