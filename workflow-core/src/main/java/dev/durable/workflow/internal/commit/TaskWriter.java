package dev.durable.workflow.internal.commit;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.support.Errors;

/**
 * Group commit: the node's writer of one-statement task commits (and of starts inserted
 * with their first task). When nothing else is being written, a commit goes at once on
 * its caller's thread, in autocommit: a lone workflow waits for no batch. Otherwise it
 * queues, and a writer thread takes the oldest waiting commit with every other waiting
 * commit of the same statement shape and sends them as one JDBC batch: one round trip. In
 * autocommit the statements of a batch sent before one Sync are one implicit transaction,
 * committed at that Sync: one commit and one WAL flush for all, and no round trip for
 * {@code BEGIN} or {@code COMMIT}. The first writer thread takes every batch while it
 * keeps up; a second one takes batches beside it only while many commits wait (a queue
 * this deep means the first thread's flushes hold the commits back), so that under
 * moderate load the waiting commits gather into larger batches: fewer transactions and
 * WAL flushes per task for the same throughput (BENCHMARKS.md, "Group commit: one writer
 * thread or two"). A shape whose statement binds arrays is written in an explicit
 * transaction instead, so that it can ask for PostgreSQL's generic plan
 * ({@code SET LOCAL} needs a transaction block).
 *
 * <p>
 * Each statement carries its own compare-and-set, so one run's stale commit writes
 * nothing and leaves the others of its batch alone. When a statement fails, the batch
 * rolls back and its commits are written again one by one, so that only the failing one
 * reports the failure. When the outcome is unknown (the commit failed, or the connection
 * broke while the batch was sent), every caller of the batch gets the failure (a task
 * then replays from what the database holds).
 */
public final class TaskWriter implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(TaskWriter.class);

	/**
	 * Writes per batch; far below the statements after which the driver sends a Sync of
	 * its own.
	 */
	private static final int MAX_BATCH = 64;

	private static final int VALIDITY_SECONDS = 5;

	private final JdbcTemplate jdbc;

	private final TaskCommitStatement statement;

	private final LinkedBlockingQueue<Write> queue = new LinkedBlockingQueue<>();

	private final List<Thread> threads;

	private volatile boolean running = true;

	/**
	 * Writes waiting at which the second writer thread starts taking batches beside the
	 * first.
	 */
	private final int secondWriterDepth;

	/**
	 * Permits released as the queue reaches that depth: they wake the second writer
	 * thread.
	 */
	private final Semaphore deepQueue = new Semaphore(0);

	/**
	 * Writes in progress (a batch of the writer threads, or a lone write on its caller's
	 * thread).
	 */
	private final AtomicInteger writing = new AtomicInteger();

	/**
	 * One queued write.
	 *
	 * @param run the run to insert with its first task, or {@code null} for a task of a
	 * stored run
	 * @param commit the task's commit
	 * @param batchSql the statement the write shares with the others of its batch, or
	 * {@code null} when it is written alone (it does not pipeline); worked out once, when
	 * it is queued
	 * @param done completed with the runs to wake ({@code null}: nothing written)
	 */
	private record Write(NewRun run, TaskCommit commit, String batchSql, CompletableFuture<List<UUID>> done) {
	}

	/**
	 * Starts the writer's two threads.
	 * @param secondWriterDepth the writes waiting at which the second thread takes
	 * batches beside the first (1: whenever a write waits)
	 */
	TaskWriter(JdbcTemplate jdbc, TaskCommitStatement statement, String name, int secondWriterDepth) {
		this.jdbc = jdbc;
		this.statement = statement;
		this.secondWriterDepth = secondWriterDepth;
		this.threads = List.of(Thread.ofPlatform().daemon().name(name + "-0").start(() -> loop(this::takeNext)),
				Thread.ofPlatform().daemon().name(name + "-1").start(() -> loop(this::takeWhenDeep)));
	}

	/**
	 * Writes a commit with the others waiting, and returns once it is durable.
	 * @param run the run to insert with its first task ({@code commit} is then that
	 * task's), or {@code null}
	 * @return the runs to wake, or {@code null} when the compare-and-set failed (or the
	 * run's id is held by an open run) and nothing was written
	 */
	List<UUID> write(NewRun run, TaskCommit commit) {
		if (!this.running) {
			return writeAlone(new Write(run, commit, null, null));
		}
		if (this.queue.isEmpty() && this.writing.compareAndSet(0, 1)) {
			// nothing waits and no batch is being written: write it at once, on this
			// thread
			try {
				return writeAlone(new Write(run, commit, null, null));
			}
			finally {
				this.writing.decrementAndGet();
			}
		}
		String batchSql = TaskCommitStatement.pipelines(commit) ? this.statement.pipelinedSql(run, commit) : null;
		Write write = new Write(run, commit, batchSql, new CompletableFuture<>());
		this.queue.add(write);
		if (this.queue.size() >= this.secondWriterDepth) {
			this.deepQueue.release();
		}
		if (!this.running && this.queue.remove(write)) {
			// queued as the writer stopped: its threads may have taken their last look at
			// the queue
			return writeAlone(write);
		}
		// no timed wait: on a virtual thread each one costs a wake-up of the JDK's timer
		// thread. The
		// threads leave their loop only once stopped with an empty queue, and a write
		// queued before
		// the stop was seen is in that queue (checked just above), so every queued write
		// is taken.
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
			throw new IllegalStateException("Interrupted while the task commit was written; its outcome is unknown",
					ex);
		}
	}

	/**
	 * How a writer thread waits for the oldest write it takes next; {@code null}: none
	 * yet.
	 */
	@FunctionalInterface
	private interface Take {

		Write next() throws InterruptedException;

	}

	/** The first writer thread: the oldest write as soon as there is one. */
	private Write takeNext() throws InterruptedException {
		return this.queue.poll(200, TimeUnit.MILLISECONDS);
	}

	/**
	 * The second writer thread: the oldest write while the queue is deep, or once it was
	 * deep since the thread last looked.
	 */
	private Write takeWhenDeep() throws InterruptedException {
		if (this.queue.size() < this.secondWriterDepth && !this.deepQueue.tryAcquire(200, TimeUnit.MILLISECONDS)) {
			return null;
		}
		this.deepQueue.drainPermits();
		return this.queue.poll();
	}

	private void loop(Take take) {
		List<Write> batch = new ArrayList<>();
		while (this.running || !this.queue.isEmpty()) {
			try {
				Write first = take.next();
				if (first == null) {
					continue;
				}
				batch.add(first);
				String sql = takeSameStatement(first, batch);
				this.writing.incrementAndGet();
				try {
					if (batch.size() == 1) {
						complete(first);
					}
					else {
						writeBatch(sql, batch);
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

	/**
	 * Takes from the queue, into the batch, the waiting writes that share the first one's
	 * pipelined statement (none when the first one does not pipeline: it is written
	 * alone).
	 * @return that statement, or {@code null}
	 */
	private String takeSameStatement(Write first, List<Write> batch) {
		String sql = first.batchSql();
		if (sql == null) {
			return null;
		}
		for (Write waiting : this.queue) {
			if (batch.size() == MAX_BATCH) {
				break;
			}
			// the queue's own removal decides which writer thread takes a write
			if (sql.equals(waiting.batchSql()) && this.queue.remove(waiting)) {
				batch.add(waiting);
			}
		}
		return sql;
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
	 * Runs one statement on its own: committed by itself in autocommit (or committed here
	 * when the pool hands out connections with autocommit off), or as part of the
	 * caller's transaction when {@code joined}.
	 */
	static <T> T alone(JdbcTemplate jdbc, boolean joined,
			org.springframework.jdbc.core.ConnectionCallback<T> statement) {
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

	/**
	 * Writes writes that share one pipelined statement, as one JDBC batch in one
	 * transaction.
	 */
	private void writeBatch(String sql, List<Write> batch) {
		boolean[] written;
		try {
			written = TaskCommitStatement.bindsArrays(batch.get(0).commit()) ? inTransaction(sql, batch)
					: inAutocommit(sql, batch);
		}
		catch (RuntimeException ex) {
			// a failure outside the statements (no connection, the commit, a broken
			// connection): the
			// batch may or may not have committed, so every caller learns its outcome is
			// unknown
			batch.forEach((write) -> write.done().completeExceptionally(ex));
			return;
		}
		if (written == null) {
			log.debug("A batch of {} task commits rolled back; writing them one by one", batch.size());
			batch.forEach(this::complete);
			return;
		}
		for (int i = 0; i < batch.size(); i++) {
			batch.get(i).done().complete(written[i] ? List.of() : null);
		}
	}

	/**
	 * The batch in autocommit: one round trip and one implicit transaction, which the
	 * server commits at the batch's Sync (the driver sends one Sync for a batch this
	 * small).
	 * @return per write, whether it was written; {@code null} when the batch rolled back
	 */
	private boolean[] inAutocommit(String sql, List<Write> batch) {
		return this.jdbc.execute((Connection con) -> {
			boolean autoCommit = con.getAutoCommit();
			if (!autoCommit) {
				con.setAutoCommit(true);
			}
			try {
				return execute(con, sql, batch);
			}
			catch (SQLException ex) {
				// a statement's error ends the implicit transaction in a rollback, and
				// the server then
				// answers the Sync: a connection that still answers tells it was an error
				// of that kind.
				// A broken connection (or one the server ended) leaves the outcome
				// unknown.
				if (con.isValid(VALIDITY_SECONDS)) {
					log.debug("A batch failed: {}", Errors.rootMessage(ex));
					return null;
				}
				throw ex;
			}
			finally {
				if (!autoCommit) {
					con.setAutoCommit(false);
				}
			}
		});
	}

	/**
	 * The batch in an explicit transaction that asks for generic plans (its statement
	 * binds arrays).
	 * @return per write, whether it was written; {@code null} when the batch rolled back
	 */
	private boolean[] inTransaction(String sql, List<Write> batch) {
		return this.jdbc.execute((Connection con) -> {
			boolean autoCommit = con.getAutoCommit();
			con.setAutoCommit(false);
			try {
				boolean[] written;
				try {
					// statements with arrays are planned once per connection, not per
					// execution:
					// PostgreSQL would otherwise keep choosing a fresh custom plan
					try (java.sql.Statement set = con.createStatement()) {
						set.execute("SET LOCAL plan_cache_mode = force_generic_plan");
					}
					written = execute(con, sql, batch);
				}
				catch (SQLException | RuntimeException ex) {
					log.debug("A batch failed: {}", Errors.rootMessage(ex));
					try {
						con.rollback();
					}
					catch (SQLException broken) {
						// no COMMIT was sent: the transaction ends in a rollback either
						// way
					}
					return null;
				}
				// a failure from here on leaves the outcome unknown
				con.commit();
				return written;
			}
			finally {
				con.setAutoCommit(autoCommit);
			}
		});
	}

	private boolean[] execute(Connection con, String sql, List<Write> batch) throws SQLException {
		return this.statement.executeBatch(con, sql, batch.stream().map(Write::run).toList(),
				batch.stream().map(Write::commit).toList());
	}

	/**
	 * Stops the writer once the queue is empty; later writes are made by their callers.
	 */
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
