package dev.durable.workflow.message;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.BeforeStatement;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.TestDatabase;
import dev.durable.workflow.support.TransactionRecorder;
import dev.durable.workflow.support.TransactionRecorder.End;
import dev.durable.workflow.support.TransactionRecorder.Transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Sending a signal: the inbox item and the run's pending-input mark are one statement,
 * which inserts the item only if it marked an open run. Without an idempotency key it
 * runs alone in autocommit (one round trip); with a key, the key's record and the send
 * are one transaction.
 */
class SignalSendStatementTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Returns what its first signal carried. */
	@Workflow(value = "signal-send", receives = { "go" })
	public static class Receiving {

		@WorkflowRun
		public String run() {
			return Workflows.receive("go", String.class);
		}

	}

	private String table(String name) {
		return this.engines.schema + "." + name;
	}

	private WorkflowHandle<String> parked(WorkflowEngine engine, String id) {
		WorkflowHandle<String> handle = engine.client().start(Receiving::run, StartOptions.withId(id));
		await().until(() -> this.engines.count("history") == 1 && EngineInternals.node(engine).isIdle());
		return handle;
	}

	/** Whether the statement is a signal's send (shared with StartedHandleSignalTest). */
	static boolean sends(String statement) {
		return statement.contains("SET pending_input = true") && statement.contains(".inbox");
	}

	@Test
	void aSignalWithoutAKeyIsOneStatementInAutocommit() {
		TransactionRecorder recorder = new TransactionRecorder(TestDatabase.dataSource());
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.dataSource(recorder.dataSource())
			// the statements counted are the engine's own: no once-per-connection session
			// settings among them
			.idleInTransactionTimeout(Duration.ZERO)
			.register(Receiving.class));
		WorkflowHandle<String> handle = parked(engine, "one-statement");

		List<Transaction> sent = recorder.during(() -> handle.signal("go", "now"));

		// the run's lookup, then the send: each alone, nothing else written
		assertThat(sent).extracting(Transaction::end).containsOnly(End.AUTOCOMMIT);
		assertThat(sent).filteredOn((t) -> t.count(SignalSendStatementTest::sends) > 0)
			.singleElement()
			.satisfies((t) -> assertThat(t.statements()).hasSize(1));
		assertThat(this.engines.count("dedup")).isZero();
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("now");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aSignalWithAKeyRecordsTheKeyAndTheItemInOneTransactionAndOnlyOnce() {
		TransactionRecorder recorder = new TransactionRecorder(TestDatabase.dataSource());
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.dataSource(recorder.dataSource())
			// the statements counted are the engine's own: no once-per-connection session
			// settings among them
			.idleInTransactionTimeout(Duration.ZERO)
			.register(Receiving.class)
			.pollInterval(Duration.ofHours(1)));
		WorkflowHandle<String> handle = parked(engine, "keyed");
		engine.shutdown(); // nothing takes the item: the inbox shows what was sent

		List<Transaction> first = recorder.during(() -> handle.signal("go", "first", "key-1"));
		List<Transaction> retried = recorder.during(() -> handle.signal("go", "retried", "key-1"));

		assertThat(first).filteredOn((t) -> t.count(SignalSendStatementTest::sends) > 0)
			.singleElement()
			.satisfies((t) -> {
				assertThat(t.end()).isEqualTo(End.COMMITTED);
				assertThat(t.statements()).hasSize(2).first().asString().contains(table("dedup"));
			});
		// a retried key writes nothing and does not reach the send
		assertThat(retried).allSatisfy((t) -> assertThat(t.count(SignalSendStatementTest::sends)).isZero());
		assertThat(this.engines.count("inbox")).isEqualTo(1);
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT convert_from(payload, 'UTF8') FROM " + table("inbox"), String.class))
			.contains("first");
	}

	@Test
	void aSignalToARunClosedBetweenItsLookupAndItsSendWritesNothing() {
		WorkflowEngine[] engine = new WorkflowEngine[1];
		// the run is terminated by another caller right before the send's statement is
		// prepared
		BeforeStatement closing = new BeforeStatement(TestDatabase.dataSource(), "SET pending_input = true",
				() -> engine[0].client().handle("closing").terminate("closed meanwhile"));
		engine[0] = this.engines
			.start(this.engines.builder().dataSource(closing.dataSource()).register(Receiving.class));
		WorkflowHandle<String> handle = parked(engine[0], "closing");
		Map<String, Object> before = this.engines.jdbc()
			.queryForMap("SELECT inbox_seq, pending_input FROM " + table("workflow_run"));

		assertThatExceptionOfType(WorkflowClosedException.class).isThrownBy(() -> handle.signal("go", "late"))
			.withMessageContaining("TERMINATED");

		assertThat(closing.fired()).isTrue();
		assertThat(this.engines.count("inbox")).isZero();
		assertThat(this.engines.jdbc().queryForMap("SELECT inbox_seq, pending_input FROM " + table("workflow_run")))
			.isEqualTo(before);
	}

}
