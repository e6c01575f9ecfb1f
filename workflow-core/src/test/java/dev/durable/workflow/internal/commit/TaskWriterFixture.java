package dev.durable.workflow.internal.commit;

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
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.versioning.BuildRouter;
import dev.durable.workflow.internal.store.BuildRepository;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.store.SchemaMigrator;
import dev.durable.workflow.support.TestDatabase;
import dev.durable.workflow.support.TransactionRecorder;
import dev.durable.workflow.support.TransactionRecorder.End;
import dev.durable.workflow.support.TransactionRecorder.Transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the group commit's tests ({@link TaskWriterTest}, {@link TaskWriterFailureTest})
 * share: a {@link TaskWriter} through {@link TaskCommitRepository} on a real PostgreSQL
 * schema, task commits built by hand for runs the test inserts, and what the database
 * then holds.
 *
 * <p>
 * To make a batch of exactly the commits a test chooses, the test first keeps every
 * writer busy ({@link #occupyWriters}): a lone commit on its caller's thread and one
 * commit on each of the two writer threads wait for row locks the test holds (the writer
 * is started so that its second thread takes a batch whenever a commit waits). Every
 * commit made after that queues; once the test releases the lock of one writer thread,
 * that thread takes the oldest queued commit with the others of its statement shape as
 * one batch, then the next shape's, while the other writer thread still waits.
 *
 * <p>
 * Which commits shared a transaction is read from two sides: the recorded transactions of
 * the writer threads, and the {@code xmin} of the history rows (the id of the transaction
 * that inserted them).
 */
abstract class TaskWriterFixture {

	static final String WRITER = "test-writer";

	static final UUID NODE = UUID.randomUUID();

	static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	static final String GENERIC_PLANS = "SET LOCAL plan_cache_mode = force_generic_plan";

	final String schema = TestDatabase.newSchema();

	final TransactionRecorder recorder = new TransactionRecorder(TestDatabase.dataSource());

	final JdbcTemplate jdbc = new JdbcTemplate(this.recorder.dataSource());

	final TaskCommitRepository tasks = new TaskCommitRepository(this.jdbc, new RunRepository(this.jdbc, this.schema),
			this.schema, BuildRouter.unversioned("default", new BuildRepository(this.jdbc, this.schema)));

	final List<Connection> locks = new ArrayList<>();

	final List<Caller> callers = new ArrayList<>();

	@BeforeEach
	void migrate() {
		new SchemaMigrator(TestDatabase.dataSource(), this.schema).migrate();
		this.tasks.startWriter(WRITER, 1);
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

	// ---- what the writer is given
	// ---------------------------------------------------------------

	/** Inserts a run with its first task (history row 1), owned by NODE at epoch 1. */
	UUID insertRun(String workflowId) {
		UUID runId = UUID.randomUUID();
		NewRun run = new NewRun(runId, "default", workflowId, "writer-test", "default", NODE,
				"input".getBytes(StandardCharsets.UTF_8), null, T0, null);
		assertThat(this.tasks.insertStarted(run, task(runId, 1, 0))).as("inserted %s", workflowId).isTrue();
		return runId;
	}

	/**
	 * The run's second task, as its owner at epoch 1 commits it: history row 2 and a
	 * timer.
	 */
	static TaskCommit secondTask(UUID runId) {
		return task(runId, 1, 1);
	}

	/**
	 * A task of the run that records one history row, takes the timer the previous task
	 * started (it fired) and starts timer {@code historySeq + 1}.
	 */
	static TaskCommit task(UUID runId, long epoch, int historySeq) {
		Instant time = T0.plusSeconds(historySeq);
		Instant fireAt = time.plusSeconds(3600);
		byte[] events = ("task " + (historySeq + 1) + " of " + runId).getBytes(StandardCharsets.UTF_8);
		List<Long> fired = (historySeq > 0) ? List.of((long) historySeq) : List.of();
		TaskCommit commit = new TaskCommit(new TaskCommit.Fence(runId, "default", "wf", NODE, epoch, 0L, false),
				new TaskCommit.HistoryRow(historySeq, time, events, List.of()),
				new TaskCommit.Timers(fired, Map.of((long) historySeq + 1, fireAt), fireAt),
				new TaskCommit.Activities(List.of(), List.of(), List.of(), false), TaskCommit.Close.OPEN,
				new TaskCommit.Relatives(List.of(), List.of(), false),
				new TaskCommit.Outputs(List.of(), 0, null, List.of(), List.of()));
		assertThat(TaskCommitRepository.isSingleStatement(commit)).isTrue();
		return commit;
	}

	/**
	 * The run's second task as a close: history row 2, the result, and the timer of the
	 * first task cleared with every other side table.
	 * @param tellsRelatives whether the close must tell a parent or children (none exist
	 * here: the statement then looks for them and finds none)
	 */
	static TaskCommit closingTask(UUID runId, long epoch, boolean tellsRelatives) {
		byte[] events = ("close of " + runId).getBytes(StandardCharsets.UTF_8);
		byte[] result = "\"done\"".getBytes(StandardCharsets.UTF_8);
		TaskCommit commit = new TaskCommit(new TaskCommit.Fence(runId, "default", "wf", NODE, epoch, 0L, false),
				new TaskCommit.HistoryRow(1, T0.plusSeconds(1), events, List.of()),
				new TaskCommit.Timers(List.of(), Map.of(), null),
				new TaskCommit.Activities(List.of(), List.of(), List.of(), false),
				new TaskCommit.Close(RunStatus.COMPLETED, result, null, null, Map.of()),
				new TaskCommit.Relatives(List.of(), List.of(), tellsRelatives),
				new TaskCommit.Outputs(List.of(), 0, null, List.of(), List.of()));
		assertThat(TaskCommitRepository.isSingleStatement(commit)).isTrue();
		return commit;
	}

	static boolean isTaskCommit(String sql) {
		return sql.startsWith("WITH u AS (");
	}

	// ---- what the database holds
	// ----------------------------------------------------------------

	String table(String name) {
		return this.schema + "." + name;
	}

	int historySeq(UUID runId) {
		return this.jdbc.queryForObject("SELECT history_seq FROM " + table("workflow_run") + " WHERE run_id = ?",
				Integer.class, runId);
	}

	List<Integer> historyRows(UUID runId) {
		return this.jdbc.queryForList("SELECT seq FROM " + table("history") + " WHERE run_id = ? ORDER BY seq",
				Integer.class, runId);
	}

	List<Long> timers(UUID runId) {
		return this.jdbc.queryForList("SELECT seq FROM " + table("timer") + " WHERE run_id = ? ORDER BY seq",
				Long.class, runId);
	}

	/** The id of the transaction that inserted the run's history row. */
	String insertedBy(UUID runId, int seq) {
		return this.jdbc.queryForObject("SELECT xmin::text FROM " + table("history") + " WHERE run_id = ? AND seq = ?",
				String.class, runId, seq);
	}

	void assertSecondTaskWritten(UUID runId) {
		assertThat(historySeq(runId)).as("history_seq of %s", runId).isEqualTo(2);
		assertThat(historyRows(runId)).as("history of %s", runId).containsExactly(1, 2);
		assertThat(timers(runId)).as("timers of %s", runId).containsExactly(2L);
	}

	void assertClosed(UUID runId) {
		assertThat(historyRows(runId)).as("history of %s", runId).containsExactly(1, 2);
		assertThat(timers(runId)).as("timers of %s", runId).isEmpty();
		assertThat(this.jdbc
			.queryForObject("SELECT r.status || ' ' || v.status || ' ' || convert_from(p.result, 'UTF8')" + " FROM "
					+ table("workflow_run") + " r JOIN " + table("visibility") + " v USING (run_id) JOIN "
					+ table("run_payload") + " p USING (run_id) WHERE run_id = ?", String.class, runId))
			.as("run, visibility and result of %s", runId)
			.isEqualTo("COMPLETED COMPLETED \"done\"");
	}

	/** A close that did not land: the run is open with only its first task. */
	void assertOnlyFirstTaskOfClose(UUID runId) {
		assertThat(historyRows(runId)).as("history of %s", runId).containsExactly(1);
		assertThat(this.jdbc.queryForObject("SELECT status FROM " + table("workflow_run") + " WHERE run_id = ?",
				String.class, runId))
			.isEqualTo("RUNNING");
	}

	void assertOnlyFirstTask(UUID runId) {
		assertThat(historySeq(runId)).as("history_seq of %s", runId).isEqualTo(1);
		assertThat(historyRows(runId)).as("history of %s", runId).containsExactly(1);
		assertThat(timers(runId)).as("timers of %s", runId).containsExactly(1L);
	}

	/**
	 * The writers ran exactly one batch transaction: it ended so, with this many task
	 * commits.
	 */
	void assertOneBatch(String description, End end, int commits) {
		assertThat(batches()).as(description).singleElement().satisfies((t) -> {
			assertThat(t.end()).isEqualTo(end);
			assertThat(t.count(TaskWriterFixture::isTaskCommit)).isEqualTo(commits);
		});
	}

	/**
	 * The explicit transactions (batches) in which the writer threads wrote task commits.
	 */
	List<Transaction> batches() {
		return this.recorder.onThreads(WRITER)
			.stream()
			.filter((t) -> t.end() != End.AUTOCOMMIT && t.count(TaskWriterFixture::isTaskCommit) > 0)
			.toList();
	}

	// ---- callers and locks
	// ----------------------------------------------------------------------

	/** A thread that makes one commit; its outcome is {@link #result}. */
	static final class Caller {

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
				.anyMatch(
						(f) -> f.getClassName().equals(TaskWriter.class.getName()) && f.getMethodName().equals("write"))
					&& stack.stream()
						.anyMatch((f) -> f.getClassName().equals(CompletableFuture.class.getName())
								&& f.getMethodName().equals("get"));
		}

		/**
		 * The effects of its commit ({@code null}: the compare-and-set failed); fails if
		 * it threw.
		 */
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

	Caller commit(String name, TaskCommit commit) {
		Caller caller = new Caller(name, () -> this.tasks.commitAlone(commit));
		this.callers.add(caller);
		return caller;
	}

	/** Commits from a new thread and waits until the commit is queued. */
	Caller queue(String name, TaskCommit commit) {
		Caller caller = commit(name, commit);
		await().until(caller::queued);
		return caller;
	}

	/** Opens a transaction that locks the runs' rows until it ends. */
	Connection lock(UUID... runIds) throws SQLException {
		Connection con = TestDatabase.openTransaction();
		this.locks.add(con);
		try (PreparedStatement ps = con
			.prepareStatement("SELECT run_id FROM " + table("workflow_run") + " WHERE run_id = ANY(?) FOR UPDATE")) {
			ps.setArray(1, con.createArrayOf("uuid", runIds));
			ps.executeQuery().close();
		}
		return con;
	}

	/** Waits until this many sessions wait for a lock on a run row of this schema. */
	void awaitLockWaits(int sessions) {
		await().until(() -> this.jdbc.queryForObject(
				"SELECT count(*) FROM pg_stat_activity" + " WHERE wait_event_type = 'Lock' AND query LIKE ?",
				Integer.class, "%" + table("workflow_run") + "%") == sessions);
	}

	/** Locks held by {@link #occupyWriters}. */
	record Busy(Connection firstWriter, Connection secondWriter, List<Caller> callers) {

		/**
		 * Frees the lone commit and one writer thread: that thread takes everything
		 * queued.
		 */
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
	 * Keeps the lone commit path and both writer threads busy, each with a commit waiting
	 * for a row lock: every commit made next is queued.
	 */
	Busy occupyWriters() throws SQLException {
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

	static List<Thread> writerThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((t) -> t.getName().startsWith(WRITER + "-") && t.isAlive())
			.toList();
	}

}
