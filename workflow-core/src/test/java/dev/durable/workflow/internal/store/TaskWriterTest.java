package dev.durable.workflow.internal.store;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.support.TestDatabase;
import dev.durable.workflow.support.TransactionRecorder;
import dev.durable.workflow.support.TransactionRecorder.End;
import dev.durable.workflow.support.TransactionRecorder.Transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Group commit ({@link TaskWriter}, DESIGN section 5, "Performance rules"), through
 * {@link TaskRepository} on a real PostgreSQL schema, with task commits built by hand for runs
 * the test inserts.
 *
 * <p>To make a batch of exactly the commits a test chooses, the test first keeps every writer
 * busy ({@link #occupyWriters}): a lone commit on its caller's thread and one commit on each of
 * the two writer threads wait for row locks the test holds. Every commit made after that queues;
 * once the test releases the lock of one writer thread, that thread takes everything queued as
 * one batch, while the other writer thread still waits.
 *
 * <p>Which commits shared a transaction is read from two sides: the recorded transactions of the
 * writer threads, and the {@code xmin} of the history rows (the id of the transaction that
 * inserted them).
 */
class TaskWriterTest {

	private static final String WRITER = "test-writer";

	private static final UUID NODE = UUID.randomUUID();

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	private static final String GENERIC_PLANS = "SET LOCAL plan_cache_mode = force_generic_plan";

	private final String schema = TestDatabase.newSchema();

	private final TransactionRecorder recorder = new TransactionRecorder(TestDatabase.dataSource());

	private final JdbcTemplate jdbc = new JdbcTemplate(this.recorder.dataSource());

	private final TaskRepository tasks = new TaskRepository(this.jdbc, new RunRepository(this.jdbc, this.schema),
			this.schema);

	private final List<Connection> locks = new ArrayList<>();

	private final List<Caller> callers = new ArrayList<>();

	@BeforeEach
	void migrate() {
		new SchemaMigrator(TestDatabase.dataSource(), this.schema).migrate();
		this.tasks.startWriter(WRITER);
	}

	@AfterEach
	void close() throws Exception {
		for (Connection lock : this.locks) {
			if (!lock.isClosed()) {
				lock.rollback();
				lock.close();
			}
		}
		this.tasks.stopWriter();
		for (Caller caller : this.callers) {
			caller.thread.join(10_000);
		}
	}

	// ---- what the writer is given ---------------------------------------------------------------

	/** Inserts a run with its first task (history row 1), owned by NODE at epoch 1. */
	private UUID insertRun(String workflowId) {
		UUID runId = UUID.randomUUID();
		NewRun run = new NewRun(runId, "default", workflowId, "writer-test", "default", NODE,
				"input".getBytes(StandardCharsets.UTF_8), null, T0, null);
		assertThat(this.tasks.insertStarted(run, task(runId, 1, 0))).as("inserted %s", workflowId).isTrue();
		return runId;
	}

	/** The run's second task, as its owner at epoch 1 commits it: history row 2 and a timer. */
	private static TaskCommit secondTask(UUID runId) {
		return task(runId, 1, 1);
	}

	/**
	 * A task of the run that records one history row, takes the timer the previous task started
	 * (it fired) and starts timer {@code historySeq + 1}.
	 */
	private static TaskCommit task(UUID runId, long epoch, int historySeq) {
		Instant time = T0.plusSeconds(historySeq);
		Instant fireAt = time.plusSeconds(3600);
		byte[] events = ("task " + (historySeq + 1) + " of " + runId).getBytes(StandardCharsets.UTF_8);
		List<Long> fired = (historySeq > 0) ? List.of((long) historySeq) : List.of();
		TaskCommit commit = new TaskCommit(runId, NODE, epoch, historySeq, 0L, time, events, List.of(), fired,
				List.of(), Map.of((long) historySeq + 1, fireAt), List.of(), fireAt, false, null, null, null, "default",
				"wf", List.of(), 0, null, Map.of(), List.of(), List.of(), null, false);
		assertThat(TaskRepository.isSingleStatement(commit)).isTrue();
		return commit;
	}

	/**
	 * The run's second task as a close: history row 2, the result, and the timer of the first task
	 * cleared with every other side table.
	 * @param tellsRelatives whether the close must tell a parent or children (none exist here: the
	 * statement then looks for them and finds none)
	 */
	private static TaskCommit closingTask(UUID runId, long epoch, boolean tellsRelatives) {
		byte[] events = ("close of " + runId).getBytes(StandardCharsets.UTF_8);
		byte[] result = "\"done\"".getBytes(StandardCharsets.UTF_8);
		TaskCommit commit = new TaskCommit(runId, NODE, epoch, 1, 0L, T0.plusSeconds(1), events, List.of(), List.of(),
				List.of(), Map.of(), List.of(), null, false, "COMPLETED", result, null, "default", "wf", List.of(), 0,
				null, Map.of(), List.of(), List.of(), null, tellsRelatives);
		assertThat(TaskRepository.isSingleStatement(commit)).isTrue();
		return commit;
	}

	private static boolean isTaskCommit(String sql) {
		return sql.startsWith("WITH u AS (");
	}

	// ---- what the database holds ----------------------------------------------------------------

	private String table(String name) {
		return this.schema + "." + name;
	}

	private int historySeq(UUID runId) {
		return this.jdbc.queryForObject("SELECT history_seq FROM " + table("workflow_run") + " WHERE run_id = ?",
				Integer.class, runId);
	}

	private List<Integer> historyRows(UUID runId) {
		return this.jdbc.queryForList("SELECT seq FROM " + table("history") + " WHERE run_id = ? ORDER BY seq",
				Integer.class, runId);
	}

	private List<Long> timers(UUID runId) {
		return this.jdbc.queryForList("SELECT seq FROM " + table("timer") + " WHERE run_id = ? ORDER BY seq",
				Long.class, runId);
	}

	/** The id of the transaction that inserted the run's history row. */
	private String insertedBy(UUID runId, int seq) {
		return this.jdbc.queryForObject("SELECT xmin::text FROM " + table("history") + " WHERE run_id = ? AND seq = ?",
				String.class, runId, seq);
	}

	private void assertSecondTaskWritten(UUID runId) {
		assertThat(historySeq(runId)).as("history_seq of %s", runId).isEqualTo(2);
		assertThat(historyRows(runId)).as("history of %s", runId).containsExactly(1, 2);
		assertThat(timers(runId)).as("timers of %s", runId).containsExactly(2L);
	}

	private void assertClosed(UUID runId) {
		assertThat(historyRows(runId)).as("history of %s", runId).containsExactly(1, 2);
		assertThat(timers(runId)).as("timers of %s", runId).isEmpty();
		assertThat(this.jdbc.queryForObject("SELECT r.status || ' ' || v.status || ' ' || convert_from(p.result, 'UTF8')"
				+ " FROM " + table("workflow_run") + " r JOIN " + table("visibility") + " v USING (run_id) JOIN "
				+ table("run_payload") + " p USING (run_id) WHERE run_id = ?", String.class, runId))
			.as("run, visibility and result of %s", runId)
			.isEqualTo("COMPLETED COMPLETED \"done\"");
	}

	/** A close that did not land: the run is open with only its first task. */
	private void assertOnlyFirstTaskOfClose(UUID runId) {
		assertThat(historyRows(runId)).as("history of %s", runId).containsExactly(1);
		assertThat(this.jdbc.queryForObject("SELECT status FROM " + table("workflow_run") + " WHERE run_id = ?",
				String.class, runId)).isEqualTo("RUNNING");
	}

	private void assertOnlyFirstTask(UUID runId) {
		assertThat(historySeq(runId)).as("history_seq of %s", runId).isEqualTo(1);
		assertThat(historyRows(runId)).as("history of %s", runId).containsExactly(1);
		assertThat(timers(runId)).as("timers of %s", runId).containsExactly(1L);
	}

	/** The writers ran exactly one batch transaction: it ended so, with this many task commits. */
	private void assertOneBatch(String description, End end, int commits) {
		assertThat(batches()).as(description).singleElement().satisfies((t) -> {
			assertThat(t.end()).isEqualTo(end);
			assertThat(t.count(TaskWriterTest::isTaskCommit)).isEqualTo(commits);
		});
	}

	/** The explicit transactions (batches) in which the writer threads wrote task commits. */
	private List<Transaction> batches() {
		return this.recorder.onThreads(WRITER)
			.stream()
			.filter((t) -> t.end() != End.AUTOCOMMIT && t.count(TaskWriterTest::isTaskCommit) > 0)
			.toList();
	}

	// ---- callers and locks ----------------------------------------------------------------------

	/** A thread that makes one commit; its outcome is {@link #result}. */
	private static final class Caller {

		final Thread thread;

		final CompletableFuture<TaskCommit.Effects> result = new CompletableFuture<>();

		Caller(String name, Supplier<TaskCommit.Effects> commit) {
			this.thread = Thread.ofPlatform().daemon().name(name).start(() -> {
				try {
					this.result.complete(commit.get());
				}
				catch (Throwable ex) {
					this.result.completeExceptionally(ex);
				}
			});
		}

		/** Whether it waits for its commit, queued, inside {@link TaskWriter}. */
		boolean queued() {
			List<StackTraceElement> stack = Arrays.asList(this.thread.getStackTrace());
			return stack.stream()
				.anyMatch((f) -> f.getClassName().equals(TaskWriter.class.getName()) && f.getMethodName().equals("write"))
					&& stack.stream()
						.anyMatch((f) -> f.getClassName().equals(CompletableFuture.class.getName())
								&& f.getMethodName().equals("get"));
		}

		/** The effects of its commit ({@code null}: the compare-and-set failed); fails if it threw. */
		TaskCommit.Effects effects() {
			try {
				return this.result.get(30, TimeUnit.SECONDS);
			}
			catch (Exception ex) {
				throw new AssertionError(this.thread.getName() + " did not commit", ex);
			}
		}

		/** What its commit threw. */
		Throwable failure() {
			try {
				TaskCommit.Effects effects = this.result.get(30, TimeUnit.SECONDS);
				throw new AssertionError(this.thread.getName() + " committed: " + effects);
			}
			catch (ExecutionException ex) {
				return ex.getCause();
			}
			catch (InterruptedException | TimeoutException ex) {
				throw new AssertionError(this.thread.getName() + " did not end", ex);
			}
		}

	}

	private Caller commit(String name, TaskCommit commit) {
		Caller caller = new Caller(name, () -> this.tasks.commitAlone(commit));
		this.callers.add(caller);
		return caller;
	}

	/** Commits from a new thread and waits until the commit is queued. */
	private Caller queue(String name, TaskCommit commit) {
		Caller caller = commit(name, commit);
		await().until(caller::queued);
		return caller;
	}

	/** Opens a transaction that locks the runs' rows until it ends. */
	private Connection lock(UUID... runIds) throws SQLException {
		Connection con = TestDatabase.dataSource().getConnection();
		this.locks.add(con);
		con.setAutoCommit(false);
		try (PreparedStatement ps = con.prepareStatement(
				"SELECT run_id FROM " + table("workflow_run") + " WHERE run_id = ANY(?) FOR UPDATE")) {
			ps.setArray(1, con.createArrayOf("uuid", runIds));
			ps.executeQuery().close();
		}
		return con;
	}

	/** Waits until this many sessions wait for a lock on a run row of this schema. */
	private void awaitLockWaits(int sessions) {
		await().until(() -> this.jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity"
				+ " WHERE wait_event_type = 'Lock' AND query LIKE ?", Integer.class,
				"%" + table("workflow_run") + "%") == sessions);
	}

	/** Locks held by {@link #occupyWriters}. */
	private record Busy(Connection firstWriter, Connection secondWriter, List<Caller> callers) {

		/** Frees the lone commit and one writer thread: that thread takes everything queued. */
		void releaseOneWriter() throws SQLException {
			this.firstWriter.commit();
		}

		/** Frees the other writer thread. */
		void releaseSecondWriter() throws SQLException {
			this.secondWriter.commit();
		}

		void assertAllCommitted() {
			this.callers.forEach((c) -> assertThat(c.effects()).isNotNull());
		}

	}

	/**
	 * Keeps the lone commit path and both writer threads busy, each with a commit waiting for a row
	 * lock: every commit made next is queued.
	 */
	private Busy occupyWriters() throws SQLException {
		UUID lone = insertRun("held-lone");
		UUID first = insertRun("held-first-writer");
		UUID second = insertRun("held-second-writer");
		Connection firstWriter = lock(lone, first);
		Connection secondWriter = lock(second);
		// nothing is being written: this one goes at once on its caller's thread
		Caller onCaller = commit("held-lone", secondTask(lone));
		awaitLockWaits(1);
		// something is being written: these queue, and each writer thread takes one
		Caller onFirst = commit("held-first-writer", secondTask(first));
		awaitLockWaits(2);
		Caller onSecond = commit("held-second-writer", secondTask(second));
		awaitLockWaits(3);
		return new Busy(firstWriter, secondWriter, List.of(onCaller, onFirst, onSecond));
	}

	// ---- the tests ------------------------------------------------------------------------------

	@Test
	void aLoneCommitIsWrittenAtOnceOnItsCallersThreadInAutocommit() {
		UUID run = insertRun("lone");

		assertThat(this.tasks.commitAlone(secondTask(run))).isNotNull();

		assertSecondTaskWritten(run);
		assertThat(this.recorder.of(Thread.currentThread())).filteredOn((t) -> t.count(TaskWriterTest::isTaskCommit) > 0)
			.as("the insert and the commit, each its own statement in autocommit on this thread")
			.hasSize(2)
			.allMatch((t) -> t.end() == End.AUTOCOMMIT);
		assertThat(this.recorder.onThreads(WRITER)).isEmpty();
	}

	@Test
	void commitsThatWaitAreWrittenTogetherInOneTransaction() throws Exception {
		List<UUID> runs = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			runs.add(insertRun("waiting-" + i));
		}
		Busy busy = occupyWriters();
		List<Caller> waiting = new ArrayList<>();
		for (int i = 0; i < runs.size(); i++) {
			waiting.add(queue("waiting-" + i, secondTask(runs.get(i))));
		}

		busy.releaseOneWriter();

		for (Caller caller : waiting) {
			assertThat(caller.effects()).as(caller.thread.getName()).isNotNull();
		}
		runs.forEach(this::assertSecondTaskWritten);
		assertOneBatch("one transaction of a writer thread with the five commits", End.COMMITTED, 5);
		assertThat(runs.stream().map((r) -> insertedBy(r, 2)).distinct()).as("transactions that wrote them")
			.hasSize(1);
		assertThat(batches().get(0).statements()).as("their timer arrays are planned generically")
			.contains(GENERIC_PLANS);
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void eachBatchHoldsTheCommitsOfOneShapeAndAShapeWithoutArraysIsOneImplicitTransaction() throws Exception {
		UUID firstStep = insertRun("first-step");
		UUID firstClose = insertRun("first-close");
		UUID secondStep = insertRun("second-step");
		UUID secondClose = insertRun("second-close");
		Busy busy = occupyWriters();
		List<Caller> callers = List.of(queue("first-step", secondTask(firstStep)),
				queue("first-close", closingTask(firstClose, 1, false)), queue("second-step", secondTask(secondStep)),
				queue("second-close", closingTask(secondClose, 1, false)));

		busy.releaseOneWriter();

		callers.forEach((caller) -> assertThat(caller.effects()).as(caller.thread.getName()).isNotNull());
		assertSecondTaskWritten(firstStep);
		assertSecondTaskWritten(secondStep);
		assertClosed(firstClose);
		assertClosed(secondClose);
		assertThat(batches()).as("the steps, then the closes").hasSize(2);
		Transaction steps = batches().get(0);
		assertThat(steps.end()).as("steps start timers: their arrays need a transaction").isEqualTo(End.COMMITTED);
		assertThat(steps.statements()).contains(GENERIC_PLANS);
		assertThat(steps.count(TaskWriterTest::isTaskCommit)).isEqualTo(2);
		Transaction closes = batches().get(1);
		assertThat(closes.end()).as("the closes bind no array: one JDBC batch in autocommit")
			.isEqualTo(End.AUTOCOMMIT_BATCH);
		assertThat(closes.statements()).as("no generic-plan setting and no array")
			.hasSize(2)
			.allSatisfy((sql) -> assertThat(sql).isEqualTo(closes.statements().get(0)).doesNotContain("ANY("));
		assertThat(insertedBy(firstStep, 2)).as("one transaction for the steps").isEqualTo(insertedBy(secondStep, 2));
		assertThat(insertedBy(firstClose, 2)).as("one implicit transaction for the closes")
			.isEqualTo(insertedBy(secondClose, 2))
			.isNotEqualTo(insertedBy(firstStep, 2));
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void closesThatTellNoOneGoInTheJdbcBatchOfTheirShapeAndAStaleOneWritesNothing() throws Exception {
		UUID quiet = insertRun("quiet");
		UUID stale = insertRun("stale-close");
		UUID telling = insertRun("telling");
		UUID quietToo = insertRun("quiet-too");
		Busy busy = occupyWriters();
		Caller quietCaller = queue("quiet", closingTask(quiet, 1, false));
		// epoch 2: another node took the run over, so this close must write nothing
		Caller staleCaller = queue("stale-close", closingTask(stale, 2, false));
		Caller tellingCaller = queue("telling", closingTask(telling, 1, true));
		Caller quietTooCaller = queue("quiet-too", closingTask(quietToo, 1, false));

		busy.releaseOneWriter();

		assertThat(quietCaller.effects().wake()).isEmpty();
		assertThat(staleCaller.effects()).as("stale close").isNull();
		assertThat(quietTooCaller.effects().wake()).isEmpty();
		assertThat(tellingCaller.effects().wake()).isEmpty();
		assertClosed(quiet);
		assertClosed(quietToo);
		assertClosed(telling);
		assertOnlyFirstTask(stale);
		assertThat(this.jdbc.queryForObject("SELECT status FROM " + table("workflow_run") + " WHERE run_id = ?",
				String.class, stale)).isEqualTo("RUNNING");
		assertOneBatch("one batch with the three closes that tell no one", End.AUTOCOMMIT_BATCH, 3);
		// they share the batched statement, which ends with the history insert
		assertThat(batches().get(0).statements()).allSatisfy((sql) -> {
			assertThat(sql).contains("cp AS").doesNotContain("cparent", "cchildren");
			assertThat(sql).endsWith(") INSERT INTO " + table("history")
					+ " (run_id, seq, created_at, events) SELECT run_id, ?, ?, ? FROM u");
		});
		assertThat(insertedBy(quiet, 2)).isEqualTo(insertedBy(quietToo, 2)).isNotEqualTo(insertedBy(telling, 2));
		assertThat(this.recorder.of(batches().get(0).thread())).as("the close that tells, on its own after the batch")
			.last()
			.satisfies((t) -> {
				assertThat(t.end()).isEqualTo(End.AUTOCOMMIT);
				assertThat(t.statements()).singleElement().asString().contains("cparent", "cchildren");
			});
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void aStatementThatFailsInAnAutocommitBatchRollsItBackAndFailsOnlyItsOwnCommit() throws Exception {
		UUID before = insertRun("before");
		UUID failing = insertRun("failing");
		UUID after = insertRun("after");
		Busy busy = occupyWriters();
		Caller beforeCaller = queue("before", closingTask(before, 1, false));
		Caller failingCaller = queue("failing", closingTask(failing, 1, false));
		Caller afterCaller = queue("after", closingTask(after, 1, false));
		// a history row 2 appears behind the owner's back: its close's insert violates the key
		this.jdbc.update("INSERT INTO " + table("history") + " (run_id, seq, created_at, events)"
				+ " VALUES (?, 2, now(), '\\x00')", failing);

		busy.releaseOneWriter();

		assertThat(failingCaller.failure()).isInstanceOf(DuplicateKeyException.class);
		assertThat(this.jdbc.queryForObject("SELECT status FROM " + table("workflow_run") + " WHERE run_id = ?",
				String.class, failing)).as("the failing close wrote nothing").isEqualTo("RUNNING");
		assertThat(beforeCaller.effects()).isNotNull();
		assertThat(afterCaller.effects()).isNotNull();
		assertClosed(before);
		assertClosed(after);
		assertOneBatch("the batch, rolled back", End.AUTOCOMMIT_BATCH_FAILED, 3);
		Thread writer = batches().get(0).thread();
		assertThat(this.recorder.of(writer)).filteredOn((t) -> t.end() == End.AUTOCOMMIT)
			.filteredOn((t) -> t.count(TaskWriterTest::isTaskCommit) == 1)
			.as("the three closes written again one by one, after the blocked commit of this writer")
			.hasSize(4);
		assertThat(insertedBy(before, 2)).as("written one by one").isNotEqualTo(insertedBy(after, 2));
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void anAutocommitBatchWhoseConnectionBreaksFailsEveryCallerAndWritesNothing() throws Exception {
		UUID first = insertRun("first");
		UUID held = insertRun("held");
		Busy busy = occupyWriters();
		Caller firstCaller = queue("first", closingTask(first, 1, false));
		Caller heldCaller = queue("held", closingTask(held, 1, false));
		Connection lock = lock(held);

		busy.releaseOneWriter();
		// the batch wrote the first close and waits for the second's row: its session ends there
		awaitLockWaits(2);
		assertThat(this.jdbc.queryForList("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
				+ " WHERE wait_event_type = 'Lock' AND query LIKE ?", Boolean.class, "%cp AS%"))
			.as("the batch's session, ended")
			.containsExactly(true);
		lock.rollback();

		assertThat(firstCaller.failure()).as("outcome unknown").isNotNull();
		assertThat(heldCaller.failure()).as("outcome unknown").isNotNull();
		assertOnlyFirstTaskOfClose(first);
		assertOnlyFirstTaskOfClose(held);
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void aStaleCommitInABatchWritesNothingAndTheOthersOfTheBatchAreCommitted() throws Exception {
		UUID before = insertRun("before");
		UUID stale = insertRun("stale");
		UUID after = insertRun("after");
		UUID last = insertRun("last");
		Busy busy = occupyWriters();
		// second of four, so that each caller must get the outcome of its own statement
		Caller beforeCaller = queue("before", secondTask(before));
		Caller staleCaller = queue("stale", secondTask(stale));
		Caller afterCaller = queue("after", secondTask(after));
		Caller lastCaller = queue("last", secondTask(last));
		// another node claims the run while its owner's commit waits in the queue
		this.jdbc.update("UPDATE " + table("workflow_run") + " SET epoch = epoch + 1 WHERE run_id = ?", stale);

		busy.releaseOneWriter();

		assertThat(staleCaller.effects()).as("the stale commit's compare-and-set failed").isNull();
		assertOnlyFirstTask(stale);
		for (Caller caller : List.of(beforeCaller, afterCaller, lastCaller)) {
			assertThat(caller.effects()).as(caller.thread.getName()).isNotNull();
		}
		assertSecondTaskWritten(before);
		assertSecondTaskWritten(after);
		assertSecondTaskWritten(last);
		assertOneBatch("one committed transaction with the four commits", End.COMMITTED, 4);
		assertThat(List.of(insertedBy(before, 2), insertedBy(after, 2), insertedBy(last, 2)).stream().distinct())
			.as("transactions that wrote the others")
			.hasSize(1);
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void aStatementThatFailsInABatchFailsOnlyItsOwnCommit() throws Exception {
		UUID before = insertRun("before");
		UUID failing = insertRun("failing");
		UUID after = insertRun("after");
		Busy busy = occupyWriters();
		Caller beforeCaller = queue("before", secondTask(before));
		Caller failingCaller = queue("failing", secondTask(failing));
		Caller afterCaller = queue("after", secondTask(after));
		// a history row 2 appears behind the owner's back: its commit's insert violates the key
		this.jdbc.update("INSERT INTO " + table("history") + " (run_id, seq, created_at, events)"
				+ " VALUES (?, 2, now(), '\\x00')", failing);

		busy.releaseOneWriter();

		assertThat(failingCaller.failure()).isInstanceOf(DuplicateKeyException.class);
		assertThat(historySeq(failing)).as("the failing commit wrote nothing").isEqualTo(1);
		assertThat(timers(failing)).containsExactly(1L);
		assertThat(beforeCaller.effects()).isNotNull();
		assertThat(afterCaller.effects()).isNotNull();
		assertSecondTaskWritten(before);
		assertSecondTaskWritten(after);
		// the batch (its three commits in one JDBC batch, one round trip) failed and rolled back;
		// then each commit went alone
		assertOneBatch("the batch, rolled back", End.ROLLED_BACK, 3);
		Thread writer = batches().get(0).thread();
		assertThat(this.recorder.of(writer)).filteredOn((t) -> t.end() == End.AUTOCOMMIT)
			.filteredOn((t) -> t.count(TaskWriterTest::isTaskCommit) == 1)
			.as("the three commits written again one by one, after the blocked one of this writer")
			.hasSize(4);
		assertThat(insertedBy(before, 2)).as("written one by one").isNotEqualTo(insertedBy(after, 2));
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void aFailureAtCommitReachesEveryCallerOfTheBatchAndNothingOfItIsWritten() throws Exception {
		UUID before = insertRun("before");
		UUID refused = insertRun("refused");
		UUID after = insertRun("after");
		// every statement succeeds; the history row of one run is refused when its transaction commits
		this.jdbc.execute("CREATE FUNCTION " + table("refuse_at_commit") + "() RETURNS trigger LANGUAGE plpgsql AS $$"
				+ " BEGIN IF NEW.run_id = '" + refused + "' THEN RAISE EXCEPTION 'refused at commit: %', NEW.run_id;"
				+ " END IF; RETURN NULL; END $$");
		this.jdbc.execute("CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON " + table("history")
				+ " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION " + table("refuse_at_commit") + "()");
		Busy busy = occupyWriters();
		List<Caller> batch = List.of(queue("before", secondTask(before)), queue("refused", secondTask(refused)),
				queue("after", secondTask(after)));

		busy.releaseOneWriter();

		for (Caller caller : batch) {
			assertThat(Errors.rootMessage(caller.failure())).as(caller.thread.getName())
				.contains("refused at commit: " + refused);
		}
		assertOnlyFirstTask(before);
		assertOnlyFirstTask(refused);
		assertOnlyFirstTask(after);
		assertOneBatch("the batch, its commit failed", End.COMMIT_FAILED, 3);
		Thread writer = batches().get(0).thread();
		assertThat(this.recorder.of(writer)).as("nothing written again after the failed commit")
			.filteredOn((t) -> t.end() == End.AUTOCOMMIT)
			.filteredOn((t) -> t.count(TaskWriterTest::isTaskCommit) > 0)
			.as("only the blocked commit this writer wrote before the batch")
			.hasSize(1);
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void stoppingTheWriterWritesWhatIsQueuedBeforeItsThreadsEnd() throws Exception {
		List<UUID> runs = List.of(insertRun("queued-0"), insertRun("queued-1"), insertRun("queued-2"));
		Busy busy = occupyWriters();
		List<Caller> queued = new ArrayList<>();
		for (int i = 0; i < runs.size(); i++) {
			queued.add(queue("queued-" + i, secondTask(runs.get(i))));
		}
		Thread stopping = Thread.ofPlatform().name("stopping").start(this.tasks::stopWriter);
		await().until(() -> Arrays.stream(stopping.getStackTrace())
			.anyMatch((f) -> f.getClassName().equals(TaskWriter.class.getName()) && f.getMethodName().equals("close")));

		busy.releaseOneWriter();

		for (Caller caller : queued) {
			assertThat(caller.effects()).as(caller.thread.getName()).isNotNull();
		}
		runs.forEach(this::assertSecondTaskWritten);
		assertThat(batches()).as("written by the stopping writer, as one batch")
			.singleElement()
			.satisfies((t) -> assertThat(t.count(TaskWriterTest::isTaskCommit)).isEqualTo(3));
		busy.releaseSecondWriter();
		stopping.join(10_000);
		assertThat(stopping.isAlive()).isFalse();
		busy.assertAllCommitted();
		assertThat(writerThreads()).as("writer threads left").isEmpty();
	}

	@Test
	void afterTheWriterStoppedEachCommitIsWrittenOnItsCallersThread() throws Exception {
		UUID held = insertRun("held");
		UUID other = insertRun("other");
		this.tasks.stopWriter();
		assertThat(writerThreads()).isEmpty();
		Connection lock = lock(held);
		Caller heldCaller = commit("held", secondTask(held));
		awaitLockWaits(1);

		// while a commit is being written, another one is not queued: its caller writes it
		Caller otherCaller = commit("other", secondTask(other));
		assertThat(otherCaller.effects()).isNotNull();
		assertSecondTaskWritten(other);
		assertThat(this.recorder.of(otherCaller.thread)).singleElement().satisfies((t) -> {
			assertThat(t.end()).isEqualTo(End.AUTOCOMMIT);
			assertThat(t.statements()).allMatch(TaskWriterTest::isTaskCommit);
		});
		assertThat(heldCaller.result).isNotDone();

		lock.commit();
		assertThat(heldCaller.effects()).isNotNull();
		assertSecondTaskWritten(held);
		assertThat(this.recorder.of(heldCaller.thread)).singleElement()
			.satisfies((t) -> assertThat(t.end()).isEqualTo(End.AUTOCOMMIT));
		assertThat(this.recorder.onThreads(WRITER)).isEmpty();
	}

	private static List<Thread> writerThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((t) -> t.getName().startsWith(WRITER + "-") && t.isAlive())
			.toList();
	}

}
