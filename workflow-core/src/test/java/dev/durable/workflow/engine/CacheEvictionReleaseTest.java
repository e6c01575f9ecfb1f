package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.FailingStatements;
import dev.durable.workflow.support.StatementRecorder;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node gives up the idle runs beyond its cache in a few statements, each run fenced by
 * its epoch: thousands of parked runs beyond the cache cost a handful of commits, not one
 * each. The released runs are taken up again by their next wake-up.
 */
class CacheEvictionReleaseTest {

	private static final String RELEASE = "SET owner_node = NULL WHERE run_id = ANY";

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Returns what its first signal carried. */
	@Workflow(value = "eviction-release", receives = { "go" })
	public static class Receiving {

		@WorkflowRun
		public String run() {
			return Workflows.receive("go", String.class);
		}

	}

	/** What the node under test prepared. */
	private StatementRecorder recorder;

	/**
	 * A node that polls (and evicts) only when woken: the test says when. Its first round
	 * (at start) is over before the test goes on, so no round of its own evicts what the
	 * test parks.
	 */
	private WorkflowEngine node(javax.sql.DataSource dataSource, int cached) {
		this.recorder = new StatementRecorder(dataSource);
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.dataSource(this.recorder.dataSource())
			// the statements counted are the engine's own: no once-per-connection session
			// settings among them
			.idleInTransactionTimeout(Duration.ZERO)
			.register(Receiving.class)
			.maxCachedRuns(cached)
			.pollInterval(Duration.ofHours(1)));
		await().until(() -> this.recorder.all()
			.stream()
			.anyMatch((statement) -> statement.sql().startsWith("SELECT run_id, epoch, ((task_attempt = 0")));
		// ...and over: a first round still under way would evict, at its end, the runs
		// the
		// test parks meanwhile (the node is idle only once its first round ended)
		await().until(() -> EngineInternals.node(engine).isIdle());
		return engine;
	}

	private List<WorkflowHandle<String>> park(WorkflowEngine engine, String prefix, int count) {
		List<WorkflowHandle<String>> handles = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			handles.add(engine.client().start(Receiving::run, StartOptions.withId(prefix + i)));
		}
		await().atMost(Duration.ofSeconds(60))
			.until(() -> this.engines.count("history") == count && EngineInternals.node(engine).isIdle());
		return handles;
	}

	/**
	 * Asks the node for a round of its poll (a wake-up for no run in particular), which
	 * ends by evicting.
	 */
	private static void pollRound(WorkflowEngine engine) {
		EngineInternals.node(engine).wake(UUID.randomUUID(), null);
	}

	private int owned(WorkflowEngine engine) {
		return this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".workflow_run WHERE owner_node = ?",
					Integer.class, EngineInternals.node(engine).nodeId());
	}

	@Test
	void idleRunsBeyondTheCacheAreReleasedInStatementsOfFiveHundred() {
		WorkflowEngine engine = node(TestDatabase.dataSource(), 20);
		List<WorkflowHandle<String>> handles = park(engine, "parked-", 620);
		assertThat(engine.cachedRuns()).isEqualTo(620);

		pollRound(engine);

		await().until(() -> engine.cachedRuns() == 20);
		assertThat(this.recorder.all()).filteredOn((s) -> s.sql().contains(RELEASE)).hasSize(2);
		assertThat(owned(engine)).as("only the cached runs keep their owner").isEqualTo(20);
		// a released run is taken up again by its signal, and replays
		WorkflowHandle<String> released = handles.get(0);
		released.signal("go", "again");
		assertThat(released.result(Duration.ofSeconds(20))).isEqualTo("again");
		Engines.assertReplays(engine, released.runId());
	}

	@Test
	void aRunWhoseEpochMovedIsNotReleasedWithTheOthers() {
		WorkflowEngine engine = node(TestDatabase.dataSource(), 0);
		List<WorkflowHandle<String>> handles = park(engine, "fenced-", 5);
		UUID moved = handles.get(2).runId();
		// as if another node had claimed it and this one had not noticed yet
		this.engines.jdbc()
			.update("UPDATE " + this.engines.schema + ".workflow_run SET epoch = epoch + 1 WHERE run_id = ?", moved);

		pollRound(engine);

		await().until(() -> engine.cachedRuns() == 0);
		assertThat(this.engines.jdbc()
			.queryForList("SELECT run_id FROM " + this.engines.schema + ".workflow_run WHERE owner_node IS NOT NULL",
					UUID.class))
			.containsExactly(moved);
	}

	@Test
	void aReleaseThatCannotReachTheDatabaseKeepsTheRunsUntilTheNextRound() {
		FailingStatements failing = new FailingStatements(TestDatabase.dataSource(), RELEASE);
		WorkflowEngine engine = node(failing.dataSource(), 0);
		List<WorkflowHandle<String>> handles = park(engine, "kept-", 3);

		failing.failNext(1);
		pollRound(engine);
		await().until(() -> failing.failed() == 1);
		assertThat(engine.cachedRuns()).as("not dropped: still owned in the database").isEqualTo(3);
		assertThat(owned(engine)).isEqualTo(3);

		pollRound(engine);
		await().until(() -> engine.cachedRuns() == 0);
		assertThat(owned(engine)).isZero();
		// unlocked after the failed round: a signal still runs the run's task
		handles.get(1).signal("go", "after");
		assertThat(handles.get(1).result(Duration.ofSeconds(20))).isEqualTo("after");
	}

}
