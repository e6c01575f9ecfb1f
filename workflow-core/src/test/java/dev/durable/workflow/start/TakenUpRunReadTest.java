package dev.durable.workflow.start;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StatementRecorder;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a node reads to take up a run it does not hold in memory (evicted from its cache,
 * or claimed from a node that stopped): the run's chain and its history in one statement,
 * and the rows of its activities only when its history leaves inline activities to
 * recover. A parked run woken by a signal reads no activity rows.
 */
class TakenUpRunReadTest {

	private final Engines engines = new Engines();

	private StatementRecorder recorder;

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Waits for a signal; fails (retryably) when told to. */
	@Workflow(value = "taken-up-read", receives = { "go" })
	public static class Parked {

		@WorkflowRun
		public String run() {
			String word = Workflows.receive("go", String.class);
			if (word.equals("fail")) {
				throw ApplicationFailure.newFailure("told to fail", "Told");
			}
			return "got " + word;
		}

	}

	/**
	 * A node that caches no idle run: each parked run is released by the next poll round.
	 */
	private WorkflowEngine node() {
		this.recorder = new StatementRecorder(TestDatabase.dataSource());
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.dataSource(this.recorder.dataSource())
			// the statements counted are the engine's own: no once-per-connection session
			// settings among them
			.idleInTransactionTimeout(Duration.ZERO)
			.register(Parked.class)
			.maxCachedRuns(0)
			.pollInterval(Duration.ofHours(1)));
		await().until(() -> this.recorder.all()
			.stream()
			.anyMatch((statement) -> statement.sql().startsWith("SELECT run_id, epoch, ((task_attempt = 0")));
		return engine;
	}

	/**
	 * Parks the run, then has the node release it (a poll round evicts the idle runs
	 * beyond the cache).
	 */
	private void parkAndRelease(WorkflowEngine engine, WorkflowHandle<String> handle) {
		await().until(() -> this.engines.count("history") > 0 && EngineInternals.node(engine).isIdle());
		EngineInternals.node(engine).wake(UUID.randomUUID(), null);
		await().until(() -> engine.cachedRuns() == 0 && this.engines.jdbc()
			.queryForObject("SELECT owner_node IS NULL FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?",
					Boolean.class, handle.runId()));
	}

	private List<String> statementsSince(long seq) {
		return this.recorder.all().stream().filter((s) -> s.seq() > seq).map(StatementRecorder.Statement::sql).toList();
	}

	private long lastSeq() {
		List<StatementRecorder.Statement> all = this.recorder.all();
		return all.isEmpty() ? 0 : all.get(all.size() - 1).seq();
	}

	@Test
	void aWokenParkedRunReadsItsChainAndHistoryInOneStatementAndNoActivityRows() {
		WorkflowEngine engine = node();
		WorkflowHandle<String> handle = engine.client().start(Parked::run, StartOptions.withId("woken"));
		parkAndRelease(engine, handle);
		long before = lastSeq();

		handle.signal("go", "now");

		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("got now");
		List<String> read = statementsSince(before);
		assertThat(read).filteredOn((sql) -> sql.contains(".history WHERE run_id = ?"))
			.singleElement()
			.satisfies((sql) -> assertThat(sql).contains("FROM " + this.engines.schema + ".run_payload"));
		assertThat(read).noneMatch((sql) -> sql.startsWith("SELECT options FROM"));
		// (the close deletes the run's activity rows, whatever they are: a write, not a
		// read)
		assertThat(read)
			.noneMatch((sql) -> sql.startsWith("SELECT") && sql.contains(this.engines.schema + ".activity "));
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void theChainReadWithTheHistoryStillRetriesTheRun() {
		WorkflowEngine engine = node();
		WorkflowHandle<String> handle = engine.client()
			.start(Parked::run,
					StartOptions.builder()
						.workflowId("retried")
						.retryPolicy(
								RetryPolicy.builder().initialInterval(Duration.ofSeconds(5)).maximumAttempts(3).build())
						.build());
		parkAndRelease(engine, handle);

		handle.signal("go", "fail");

		// the retry policy lives in the chain: without it the failure would end the
		// workflow
		await().until(() -> this.engines.jdbc()
			.queryForList("SELECT status, attempt FROM " + this.engines.schema
					+ ".workflow_run WHERE workflow_id = 'retried' ORDER BY attempt")
			.stream()
			.map((Map<String, Object> r) -> r.get("status") + "/" + r.get("attempt"))
			.toList()
			.equals(List.of("FAILED/1", "RUNNING/2")));
	}

}
