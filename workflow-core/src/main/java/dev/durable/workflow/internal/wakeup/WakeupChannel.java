package dev.durable.workflow.internal.wakeup;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.store.TopicMatch;
import dev.durable.workflow.internal.support.BackgroundThreads;
import dev.durable.workflow.internal.support.Errors;

/**
 * Cross-node wake-ups over PostgreSQL LISTEN/NOTIFY. Senders queue the target node ("*"
 * for any node that may claim, or a flow-control queue whose round other nodes should
 * run) and a single sender thread coalesces them, outside the commit path (NOTIFY takes a
 * global lock at commit). The listener holds one dedicated connection; polling stays the
 * fallback that guarantees progress when a notification is lost. That connection comes
 * from the listen data source: behind a transaction-mode pooler such as PgBouncer a
 * LISTEN would register on whichever server session ran it and never deliver to this
 * client, so it must be direct. NOTIFY is transactional and goes through the ordinary
 * data source.
 */
public final class WakeupChannel implements AutoCloseable {

	/**
	 * How often every reader of outputs and result waiter re-reads, in case a
	 * notification was lost.
	 */
	static final long OUTPUT_SWEEP_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(30);

	/**
	 * How often an idle listening connection is checked. Waiting for notifications reads
	 * nothing from a server that vanished without closing the socket (a failed-over or
	 * partitioned host), so without a check the listener would hold the dead connection
	 * forever, never reconnecting to the new primary.
	 */
	private static final Duration CHECK_EVERY = Duration.ofSeconds(10);

	/** How long a check waits for the server's answer. */
	private static final int CHECK_TIMEOUT_SECONDS = 5;

	private static final Logger log = LoggerFactory.getLogger(WakeupChannel.class);

	private final DataSource dataSource;

	private final DataSource listenDataSource;

	private final String channel;

	private final Set<Wakeup> pending = new LinkedHashSet<>();

	private volatile boolean running = true;

	private final Thread sender;

	private Thread listener;

	private final long checkEveryNanos;

	private final int checkTimeoutSeconds;

	/**
	 * @param dataSource where notifications are sent
	 * @param listenDataSource where the listening connection comes from (a direct
	 * session)
	 */
	public WakeupChannel(DataSource dataSource, DataSource listenDataSource, String schema) {
		this(dataSource, listenDataSource, schema, CHECK_EVERY, CHECK_TIMEOUT_SECONDS);
	}

	/**
	 * The channel of a node: its idle listening connection is checked at least once a
	 * lease (a listener that missed notifications for longer than that could not have
	 * done the work anyway), each check waiting no longer than a statement may.
	 */
	public static WakeupChannel forNode(DataSource dataSource, DataSource listenDataSource, EngineSettings config) {
		Duration checkEvery = (config.lease().compareTo(CHECK_EVERY) < 0) ? config.lease() : CHECK_EVERY;
		long timeoutSeconds = Math.max(1,
				Math.min(CHECK_TIMEOUT_SECONDS, (config.statementTimeout().toMillis() + 999) / 1000));
		return new WakeupChannel(dataSource, listenDataSource, config.schema(), checkEvery, (int) timeoutSeconds);
	}

	public WakeupChannel(DataSource dataSource, DataSource listenDataSource, String schema, Duration checkEvery,
			int checkTimeoutSeconds) {
		this.dataSource = dataSource;
		this.listenDataSource = listenDataSource;
		this.channel = TopicMatch.channel(schema);
		this.checkEveryNanos = checkEvery.toNanos();
		this.checkTimeoutSeconds = checkTimeoutSeconds;
		this.sender = Thread.ofPlatform().daemon().name("durable-notify").start(this::sendLoop);
	}

	/** Queues a wake-up for the sender thread. */
	public void notify(Wakeup wakeup) {
		synchronized (this.pending) {
			if (this.pending.add(wakeup)) {
				this.pending.notifyAll();
			}
		}
	}

	/** Asks the given node (or any node, for {@code null}) to look for work soon. */
	public void notifyNode(UUID node) {
		notify((node != null) ? new Wakeup.Node(node) : Wakeup.AnyNode.INSTANCE);
	}

	/**
	 * Asks the other nodes for an admission round of a flow-control queue. The sender is
	 * named so that it ignores its own notification (rounds a notification asked for
	 * never notify again).
	 */
	public void notifyQueue(UUID sender, String queue) {
		notify(new Wakeup.QueueRound(sender, queue));
	}

	/**
	 * Asks the owner of a run to run its task soon: the owner schedules the run at once
	 * if it holds it, without a poll; else it polls.
	 */
	public void notifyRun(UUID owner, UUID runId) {
		notify(new Wakeup.Run(owner, runId));
	}

	/**
	 * Tells every node that a run's events or streams changed (their readers re-read).
	 */
	public void notifyOutputs(UUID runId) {
		notify(new Wakeup.Outputs(runId));
	}

	/**
	 * Tells every node that an awaited run closed (its result waiters read the outcome).
	 */
	public void notifyClosed(UUID runId) {
		notify(new Wakeup.Closed(runId));
	}

	/** Asks the nodes serving an activity task queue to claim from it soon. */
	public void notifyTaskQueue(String taskQueue) {
		notify(new Wakeup.TaskQueue(taskQueue));
	}

	/**
	 * Listens only for outputs and awaited closes (a client-only node's readers and
	 * result waiters).
	 */
	public void listenForOutputs(UUID self, Consumer<UUID> onOutput, Consumer<UUID> onClosed) {
		listen(self, () -> {
		}, (queue) -> {
		}, (queue) -> {
		}, (runId) -> {
		}, onOutput, onClosed, () -> {
		});
	}

	/**
	 * Starts listening for notifications addressed to this node or to any node, for the
	 * queue rounds other nodes ask for, for activity task queues with new work, for the
	 * runs whose events or streams changed and for awaited runs that closed.
	 * @param onQueue gets the name of each flow-control queue a notification names
	 * @param onTaskQueue gets the name of each activity task queue a notification names
	 * @param onRun gets each run of this node a notification names
	 * @param onOutput gets each run whose outputs a notification names, and {@code null}
	 * each time the listener (re)connects (what was sent meanwhile is lost: every reader
	 * re-reads)
	 * @param onClosed gets each awaited run that closed, and {@code null} each time the
	 * listener (re)connects and every {@link #OUTPUT_SWEEP_NANOS} (every result waiter
	 * re-reads)
	 * @param onTopics runs when events were published on topics
	 */
	public void listen(UUID self, Runnable onWakeup, Consumer<String> onQueue, Consumer<String> onTaskQueue,
			Consumer<UUID> onRun, Consumer<UUID> onOutput, Consumer<UUID> onClosed, Runnable onTopics) {
		this.listener = Thread.ofPlatform().daemon().name("durable-listen").start(() -> {
			while (this.running) {
				try (Connection connection = this.listenDataSource.getConnection()) {
					try {
						listenOn(connection, self, onWakeup, onQueue, onTaskQueue, onRun, onOutput, onClosed, onTopics);
					}
					catch (SQLException | RuntimeException ex) {
						if (this.running) {
							// (stopping: the pool may be closing its connections, not a
							// failure)
							discardIfBroken(connection);
						}
						throw ex;
					}
				}
				catch (SQLException | RuntimeException ex) {
					if (this.running) {
						log.warn("Listening for wake-ups failed, polling only until it reconnects: {}",
								Errors.rootMessage(ex));
						pause(1000);
					}
				}
			}
		});
	}

	private void listenOn(Connection connection, UUID me, Runnable onWakeup, Consumer<String> onQueue,
			Consumer<String> onTaskQueue, Consumer<UUID> onRun, Consumer<UUID> onOutput, Consumer<UUID> onClosed,
			Runnable onTopics) throws SQLException {
		connection.setAutoCommit(true);
		// under the check's timeout: a pooled connection may be dead without the pool
		// knowing
		check(connection);
		PGConnection pg = connection.unwrap(PGConnection.class);
		onWakeup.run(); // anything sent while not listening
		onOutput.accept(null);
		onClosed.accept(null);
		long checked = System.nanoTime();
		long swept = checked;
		while (this.running) {
			PGNotification[] notifications = pg.getNotifications(500);
			if (System.nanoTime() - checked >= this.checkEveryNanos) {
				check(connection);
				checked = System.nanoTime();
			}
			if (System.nanoTime() - swept >= OUTPUT_SWEEP_NANOS) {
				// one sweep for the node, no timer per reader: a notification is sent
				// after its
				// commit, so a node that died in between lost it; every reader re-reads
				onOutput.accept(null);
				onClosed.accept(null);
				swept = System.nanoTime();
			}
			if (notifications == null) {
				continue;
			}
			boolean woken = false;
			for (PGNotification notification : notifications) {
				switch (WakeupCodec.read(notification.getParameter())) {
					case Wakeup.AnyNode any -> woken = wakeOnce(woken, onWakeup);
					case Wakeup.Node node when me.equals(node.node()) -> woken = wakeOnce(woken, onWakeup);
					case Wakeup.QueueRound round when !me.equals(round.sender()) -> onQueue.accept(round.queue());
					case Wakeup.Outputs outputs -> onOutput.accept(outputs.runId());
					case Wakeup.Closed closed -> onClosed.accept(closed.runId());
					case Wakeup.TaskQueue queue -> onTaskQueue.accept(queue.taskQueue());
					case Wakeup.Run run when me.equals(run.node()) -> onRun.accept(run.runId());
					case Wakeup.Topics topics -> onTopics.run();
					case null, default -> {
						// another node's, or not a wake-up this version knows
					}
				}
			}
		}
	}

	/** Runs the wake-up once per batch of notifications. @return {@code true} */
	private static boolean wakeOnce(boolean woken, Runnable onWakeup) {
		if (!woken) {
			onWakeup.run();
		}
		return true;
	}

	private void listen(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("LISTEN " + this.channel);
		}
	}

	/**
	 * Fails when the server does not answer in time. The check repeats the LISTEN (a
	 * no-op for a channel already listened to) under a network timeout: a read that times
	 * out closes the connection and throws, and the backend's last statement stays the
	 * LISTEN for anyone looking at pg_stat_activity.
	 */
	private void check(Connection connection) throws SQLException {
		int saved = connection.getNetworkTimeout();
		connection.setNetworkTimeout(Runnable::run, this.checkTimeoutSeconds * 1000);
		try {
			listen(connection);
		}
		finally {
			try {
				connection.setNetworkTimeout(Runnable::run, saved);
			}
			catch (SQLException ex) {
				// closed by the failed check: the check's own failure is the one that
				// matters
			}
		}
	}

	/**
	 * Lets the pool see a broken listening connection fail. The failure came from the
	 * unwrapped driver connection, which the pool does not watch: closed as it is, the
	 * dead connection would go back to the pool and fail the next task commit that
	 * borrows it. A statement through the pool's own connection fails the same way, and
	 * the pool then drops the connection when it is closed.
	 */
	private static void discardIfBroken(Connection connection) {
		try (Statement statement = connection.createStatement()) {
			statement.execute("SELECT 1");
		}
		catch (SQLException | RuntimeException ex) {
			// expected when the connection is broken: the pool has seen it
		}
	}

	private void sendLoop() {
		// after close, what was asked before it is still sent (a stopping node's last
		// wake-ups)
		while (this.running || hasPending()) {
			Set<Wakeup> targets;
			synchronized (this.pending) {
				while (this.pending.isEmpty() && this.running) {
					try {
						this.pending.wait(1000);
					}
					catch (InterruptedException ex) {
						return;
					}
				}
				targets = WakeupBatch.coalesce(this.pending);
				this.pending.clear();
			}
			if (targets.isEmpty()) {
				continue;
			}
			try (Connection connection = this.dataSource.getConnection()) {
				connection.setAutoCommit(true);
				try (PreparedStatement statement = connection.prepareStatement("SELECT pg_notify(?, ?)")) {
					for (Wakeup target : targets) {
						statement.setString(1, this.channel);
						statement.setString(2, WakeupCodec.write(target));
						statement.addBatch();
					}
					statement.executeBatch();
				}
			}
			catch (SQLException | RuntimeException ex) {
				log.debug("Sending wake-ups failed (polling will pick the work up): {}", Errors.rootMessage(ex));
			}
		}
	}

	private static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private boolean hasPending() {
		synchronized (this.pending) {
			return !this.pending.isEmpty();
		}
	}

	/**
	 * Stops listening; the wake-ups asked for so far are sent first (for at most a
	 * second).
	 */
	@Override
	public void close() {
		this.running = false;
		if (this.listener != null) {
			this.listener.interrupt();
		}
		synchronized (this.pending) {
			this.pending.notifyAll();
		}
		try {
			this.sender.join(1000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.sender.interrupt();
		BackgroundThreads.awaitEnded(this.sender);
		BackgroundThreads.awaitEnded(this.listener);
	}

}
