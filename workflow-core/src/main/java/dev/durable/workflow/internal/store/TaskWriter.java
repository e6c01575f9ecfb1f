package dev.durable.workflow.internal.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.support.Errors;

/**
 * Group commit: the node's writer of one-statement task commits (and of starts inserted with
 * their first task). When nothing else is being written, a commit goes at once on its caller's
 * thread, in autocommit: a lone workflow waits for no batch. Otherwise it queues, and a writer
 * thread (two, so that one batch gathers while the other waits for its WAL flush) takes every
 * commit waiting and writes them in one transaction: one commit and one WAL flush for all, and
 * the commits of one statement shape in one JDBC batch (one round trip).
 *
 * <p>Each statement carries its own compare-and-set, so one run's stale commit writes nothing
 * and leaves the others of its batch alone. When a statement fails, the batch rolls back and its
 * commits are written again one by one, so that only the failing one reports the failure. When
 * the commit itself fails the outcome is unknown: every caller of the batch gets the failure
 * (a task then replays from what the database holds).
 */
public final class TaskWriter implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(TaskWriter.class);

	private static final int MAX_BATCH = 64;

	private final JdbcTemplate jdbc;

	private final TaskCommitStatement statement;

	private final LinkedBlockingQueue<Write> queue = new LinkedBlockingQueue<>();

	private final List<Thread> threads;

	private volatile boolean running = true;

	/** Writes in progress (a batch of the writer threads, or a lone write on its caller's thread). */
	private final java.util.concurrent.atomic.AtomicInteger writing = new java.util.concurrent.atomic.AtomicInteger();

	/**
	 * One queued write.
	 *
	 * @param run the run to insert with its first task, or {@code null} for a task of a stored run
	 * @param commit the task's commit
	 * @param done completed with the runs to wake ({@code null}: nothing written)
	 */
	private record Write(NewRun run, TaskCommit commit, CompletableFuture<List<UUID>> done) {
	}

	TaskWriter(JdbcTemplate jdbc, TaskCommitStatement statement, String name, int writers) {
		this.jdbc = jdbc;
		this.statement = statement;
		this.threads = java.util.stream.IntStream.range(0, writers)
			.mapToObj((i) -> Thread.ofPlatform().daemon().name(name + "-" + i).start(this::loop))
			.toList();
	}

	/**
	 * Writes a commit with the others waiting, and returns once it is durable.
	 * @param run the run to insert with its first task ({@code commit} is then that task's), or
	 * {@code null}
	 * @return the runs to wake, or {@code null} when the compare-and-set failed (or the run's id
	 * is held by an open run) and nothing was written
	 */
	List<UUID> write(NewRun run, TaskCommit commit) {
		if (!this.running) {
			return writeAlone(new Write(run, commit, null));
		}
		if (this.queue.isEmpty() && this.writing.compareAndSet(0, 1)) {
			// nothing waits and no batch is being written: write it at once, on this thread
			try {
				return writeAlone(new Write(run, commit, null));
			}
			finally {
				this.writing.decrementAndGet();
			}
		}
		Write write = new Write(run, commit, new CompletableFuture<>());
		this.queue.add(write);
		if (!this.running && this.queue.remove(write)) {
			// queued as the writer stopped: its threads may have taken their last look at the queue
			return writeAlone(write);
		}
		// no timed wait: on a virtual thread each one costs a wake-up of the JDK's timer thread. The
		// threads leave their loop only once stopped with an empty queue, and a write queued before
		// the stop was seen is in that queue (checked just above), so every queued write is taken.
		try {
			return write.done().get();
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof RuntimeException runtime) {
				throw runtime;
			}
			throw new IllegalStateException(ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while the task commit was written; its outcome is unknown", ex);
		}
	}

	private void loop() {
		List<Write> batch = new ArrayList<>();
		while (this.running || !this.queue.isEmpty()) {
			try {
				Write first = this.queue.poll(200, TimeUnit.MILLISECONDS);
				if (first == null) {
					continue;
				}
				batch.add(first);
				this.queue.drainTo(batch, MAX_BATCH - 1);
				this.writing.incrementAndGet();
				try {
					if (batch.size() == 1) {
						complete(first);
					}
					else {
						writeBatch(batch);
					}
				}
				finally {
					this.writing.decrementAndGet();
				}
			}
			catch (InterruptedException ex) {
				// only a stop ends the loop: callers wait for the queue without a timeout
				continue;
			}
			catch (RuntimeException | Error ex) {
				// never leave a caller waiting
				batch.forEach((write) -> write.done().completeExceptionally(ex));
			}
			finally {
				batch.clear();
			}
		}
		// closing: what is still queued is written by its callers' threads
		for (Write left = this.queue.poll(); left != null; left = this.queue.poll()) {
			complete(left);
		}
	}

	private void complete(Write write) {
		try {
			write.done().complete(writeAlone(write));
		}
		catch (RuntimeException ex) {
			write.done().completeExceptionally(ex);
		}
	}

	private List<UUID> writeAlone(Write write) {
		return alone(this.jdbc, false, (con) -> this.statement.execute(con, write.run(), write.commit()));
	}

	/**
	 * Runs one statement on its own: committed by itself in autocommit (or committed here when
	 * the pool hands out connections with autocommit off), or as part of the caller's transaction
	 * when {@code joined}.
	 */
	static <T> T alone(JdbcTemplate jdbc, boolean joined, org.springframework.jdbc.core.ConnectionCallback<T> statement) {
		return jdbc.execute((Connection con) -> {
			boolean commitHere = !joined && !con.getAutoCommit();
			try {
				T result = statement.doInConnection(con);
				if (commitHere) {
					con.commit();
				}
				return result;
			}
			catch (SQLException | RuntimeException ex) {
				if (commitHere) {
					con.rollback();
				}
				throw ex;
			}
		});
	}

	private void writeBatch(List<Write> batch) {
		boolean[] committing = { false };
		List<List<UUID>> results;
		try {
			results = this.jdbc.execute((Connection con) -> {
				boolean autoCommit = con.getAutoCommit();
				con.setAutoCommit(false);
				try {
					// statements with arrays are planned once per connection, not per execution:
					// PostgreSQL would otherwise keep choosing a fresh custom plan. A batch without
					// them saves the round trip of the setting.
					if (batch.stream().anyMatch((write) -> TaskCommitStatement.bindsArrays(write.commit()))) {
						try (java.sql.Statement set = con.createStatement()) {
							set.execute("SET LOCAL plan_cache_mode = force_generic_plan");
						}
					}
					List<List<UUID>> woken = writeAll(con, batch);
					committing[0] = true;
					con.commit();
					return woken;
				}
				catch (SQLException | RuntimeException ex) {
					if (!committing[0]) {
						con.rollback();
					}
					throw ex;
				}
				finally {
					con.setAutoCommit(autoCommit);
				}
			});
		}
		catch (RuntimeException ex) {
			if (committing[0]) {
				// the commit may or may not have landed: every caller learns it is unknown
				batch.forEach((write) -> write.done().completeExceptionally(ex));
				return;
			}
			log.debug("A batch of {} task commits failed ({}); writing them one by one", batch.size(),
					Errors.rootMessage(ex));
			batch.forEach(this::complete);
			return;
		}
		for (int i = 0; i < batch.size(); i++) {
			batch.get(i).done().complete(results.get(i));
		}
	}

	/**
	 * Writes a batch on the connection: the writes of one statement shape go in one JDBC batch (one
	 * round trip), closing commits that tell a parent or children (which report whom they woke) one
	 * by one.
	 * @return per write, the runs to wake or {@code null} when nothing was written
	 */
	private List<List<UUID>> writeAll(Connection con, List<Write> batch) throws SQLException {
		List<List<UUID>> woken = new ArrayList<>(java.util.Collections.nCopies(batch.size(), null));
		java.util.Map<String, List<Integer>> byStatement = new java.util.LinkedHashMap<>();
		for (int n = 0; n < batch.size(); n++) {
			Write write = batch.get(n);
			if (TaskCommitStatement.pipelines(write.commit())) {
				byStatement.computeIfAbsent(this.statement.pipelinedSql(write.run(), write.commit()),
						(sql) -> new ArrayList<>())
					.add(n);
			}
			else {
				woken.set(n, this.statement.execute(con, write.run(), write.commit()));
			}
		}
		for (java.util.Map.Entry<String, List<Integer>> group : byStatement.entrySet()) {
			List<Integer> members = group.getValue();
			boolean[] written = this.statement.executeBatch(con, group.getKey(),
					members.stream().map((n) -> batch.get(n).run()).toList(),
					members.stream().map((n) -> batch.get(n).commit()).toList());
			for (int k = 0; k < members.size(); k++) {
				woken.set(members.get(k), written[k] ? List.of() : null);
			}
		}
		return woken;
	}

	/** Stops the writer once the queue is empty; later writes are made by their callers. */
	@Override
	public void close() {
		this.running = false;
		try {
			for (Thread thread : this.threads) {
				thread.join(TimeUnit.SECONDS.toMillis(5));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
