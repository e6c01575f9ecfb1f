package dev.durable.workflow.fault;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.PostgresCluster;
import dev.durable.workflow.testsupport.SettableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * PostgreSQL failover under load: a primary and a streaming replica, two engines on a
 * multi-host JDBC URL with {@code targetServerType=primary}; mid-way the primary is
 * killed ({@code pg_ctl stop
 * -m immediate}) and the replica promoted. With synchronous replication every run
 * completes once, no acknowledged signal is lost, and only activities in flight at the
 * kill run again. With asynchronous replication the test measures what a promotion of a
 * lagging replica loses.
 *
 * <p>
 * Needs PostgreSQL binaries with {@code pg_basebackup} (see {@link PostgresCluster});
 * skipped when there are none. Uses ports 18400-18449.
 */
class PrimaryFailoverIT {

	private static final int FIRST_PORT = 18400;

	private static final int LAST_PORT = 18449;

	private static final int WORKFLOWS = 24;

	private static final String SCHEMA = "failover";

	private static final String LOG = "failover_log.execution";

	/**
	 * How long the wake-up listeners are kept off the new primary after the promotion.
	 */
	private static final Duration LISTENER_GAP = Duration.ofSeconds(3);

	private final long began = System.nanoTime();

	private final SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private Path bin;

	private volatile boolean driving = true;

	/** One logged activity execution. */
	private record Execution(String workflowId, int step, int attempt, Instant startedAt) {
	}

	@Activity
	public interface Steps {

		String step(int index, int step, String acc);

	}

	/** Logs each execution with its own autocommit insert, then works a little. */
	public static final class LoggingSteps implements Steps {

		private final DataSource log;

		LoggingSteps(DataSource log) {
			this.log = log;
		}

		@Override
		public String step(int index, int step, String acc) {
			ActivityInfo info = ActivityContext.current().info();
			try (Connection connection = this.log.getConnection();
					PreparedStatement insert = connection
						.prepareStatement("INSERT INTO " + LOG + " (workflow_id, step, attempt) VALUES (?, ?, ?)")) {
				insert.setString(1, info.workflowId());
				insert.setInt(2, step);
				insert.setInt(3, info.attempt());
				insert.executeUpdate();
			}
			catch (SQLException ex) {
				throw new IllegalStateException("Cannot log step " + step + " of " + info.workflowId(), ex);
			}
			try {
				Thread.sleep(300); // the activity's "work": keeps activities in flight at
									// the kill
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted", ex);
			}
			return acc + "|" + step;
		}

	}

	/** An activity, a timer, an activity, a signal, an activity. */
	@Workflow(value = "failover-chain", receives = { "go" })
	public static class Chain {

		private final Steps steps;

		public Chain(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(int index) {
			String acc = this.steps.step(index, 1, "w" + index);
			Workflows.sleep(Duration.ofSeconds(30));
			acc = this.steps.step(index, 2, acc);
			String go = Workflows.receive("go", String.class);
			return this.steps.step(index, 3, acc + "+" + go);
		}

	}

	static String expected(int index) {
		return "w" + index + "|1|2+go" + index + "|3";
	}

	@BeforeEach
	void binaries() {
		this.bin = PostgresCluster.binaries().orElse(null);
		assumeThat(this.bin)
			.as("PostgreSQL binaries with pg_basebackup (the embedded bundle has none): install Debian's"
					+ " 'postgresql' package or set -Ddurable.pg.bin=<dir>; .ci/run installs them")
			.isNotNull();
	}

	@AfterEach
	void close() throws Exception {
		this.driving = false;
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
	}

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void everyRunCompletesOnceAfterThePrimaryIsKilledAndTheSynchronousReplicaPromoted() throws Exception {
		PostgresCluster cluster = track(PostgresCluster.start(this.bin, FIRST_PORT, LAST_PORT, true));
		progress("primary on %d, synchronous replica on %d", cluster.primaryPort, cluster.replicaPort);
		awaitStreaming(cluster, "sync");
		HikariDataSource logPool = track(pool(cluster, 8));
		createLogTable(logPool);
		WorkflowEngine first = track(engine(track(pool(cluster, 12)), logPool).build().start());
		WorkflowEngine second = track(engine(track(pool(cluster, 12)), logPool).build().start());
		Thread driver = driveTheClock();

		for (int i = 0; i < WORKFLOWS; i++) {
			first.client().start(Chain::run, i, StartOptions.withId(id(i)));
		}
		// half the signals are acknowledged before the kill, half are sent across it
		for (int i = 0; i < WORKFLOWS / 2; i++) {
			first.client().handle(id(i)).signal("go", "go" + i, "go-" + i);
		}
		await("every first step ran and some second steps").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> count(logPool, "step = 1") == WORKFLOWS && count(logPool, "step = 2") >= WORKFLOWS / 4);

		Instant killStarted = Instant.now();
		cluster.killPrimary();
		// (pg_ctl returns once the primary's processes are gone: any later commit is the
		// new primary's)
		Instant killedAt = Instant.now();
		// the other half of the signals is sent from the kill on, while there is no
		// primary
		AtomicInteger failedSignalAttempts = new AtomicInteger();
		AtomicInteger acceptedSignals = new AtomicInteger();
		Thread signaller = Thread.ofPlatform().name("failover-signals").start(() -> {
			for (int i = WORKFLOWS / 2; i < WORKFLOWS; i++) {
				failedSignalAttempts.addAndGet(signalUntilAccepted(second, i));
				acceptedSignals.incrementAndGet();
			}
		});
		cluster.promoteReplica();
		Instant promotedAt = Instant.now();
		progress("killed the primary at %s (pg_ctl took %d ms); replica promoted %d ms later", killedAt,
				millis(killStarted, killedAt), millis(killedAt, promotedAt));

		// a gap without wake-ups: the listeners are kept off the new primary, the
		// fallback poll must carry the work
		int terminated = keepListenersOff(cluster.replicaPort, LISTENER_GAP);
		Instant gapEnd = Instant.now();
		await("both engines LISTEN on the new primary").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> listeners(cluster.replicaPort) == 2);
		Instant listening = Instant.now();

		signaller.join(60_000);
		assertThat(acceptedSignals).as("signals sent across the failover and accepted").hasValue(WORKFLOWS / 2);
		progress("signals sent from the kill on: %d attempts failed and were retried (same idempotency key)",
				failedSignalAttempts.get());

		await("every run completed on the new primary").atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> completed(cluster.replicaPort) == WORKFLOWS);
		this.driving = false;
		driver.join(5000);

		try (Connection newPrimary = PostgresCluster.connect(cluster.replicaPort)) {
			Instant firstCommit = firstCommitAfter(newPrimary, killedAt);
			Instant firstActivity = firstExecutionAfter(newPrimary, killedAt);
			int commitsInGap = commitsBetween(newPrimary, promotedAt, gapEnd);
			progress(
					"recovery: first engine commit on the new primary %d ms after the kill, first activity %d ms"
							+ " after it; %d listening connections cut in the %d ms gap, %d engine commits made in it;"
							+ " both listeners back %d ms after the gap",
					millis(killedAt, firstCommit), millis(killedAt, firstActivity), terminated, LISTENER_GAP.toMillis(),
					commitsInGap, millis(gapEnd, listening));
			assertThat(firstCommit).as("first engine commit on the new primary").isAfter(killedAt);
			assertThat(commitsInGap).as("engine commits while no wake-up listener was connected").isPositive();
		}

		checkRuns(second);
		checkExecutions(executions(logPool), killedAt);
	}

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void asynchronousReplicationLosesTheStartsTheReplicaHadNotReceived() throws Exception {
		PostgresCluster cluster = track(PostgresCluster.start(this.bin, FIRST_PORT, LAST_PORT, false));
		progress("primary on %d, asynchronous replica on %d", cluster.primaryPort, cluster.replicaPort);
		awaitStreaming(cluster, "async");
		int kept = 5;
		int acknowledgedWhileBehind = 10;
		try (HikariDataSource pool = pool(cluster, 4);
				WorkflowEngine client = engine(pool, pool).worker(false).build().start()) {
			for (int i = 0; i < kept; i++) {
				client.client().start(Chain::run, i, StartOptions.withId("kept-" + i));
			}
			awaitReplayed(cluster);
			// the replica falls behind: here as far as it can, no WAL reaches it any more
			cluster.stopReplica();
			for (int i = 0; i < acknowledgedWhileBehind; i++) {
				client.client().start(Chain::run, i, StartOptions.withId("behind-" + i));
			}
			progress("%d starts acknowledged by the primary while the replica received no WAL",
					acknowledgedWhileBehind);
			cluster.killPrimary();
		}
		cluster.restartReplica();
		cluster.promoteReplica();
		try (Connection newPrimary = PostgresCluster.connect(cluster.replicaPort)) {
			int keptRuns = runs(newPrimary, "kept-%");
			int behindRuns = runs(newPrimary, "behind-%");
			progress(
					"after the promotion: %d of %d starts replicated before the lag survive; %d of %d acknowledged"
							+ " starts lost",
					keptRuns, kept, acknowledgedWhileBehind - behindRuns, acknowledgedWhileBehind);
			assertThat(keptRuns).as("starts the replica had replayed").isEqualTo(kept);
			assertThat(acknowledgedWhileBehind - behindRuns).as("acknowledged starts lost by the promotion")
				.isEqualTo(acknowledgedWhileBehind);
		}
	}

	private void checkRuns(WorkflowEngine engine) {
		for (int i = 0; i < WORKFLOWS; i++) {
			String id = id(i);
			assertThat(engine.client().handle(id, String.class).result(Duration.ofSeconds(10)))
				.as("result of %s (its signal included)", id)
				.isEqualTo(expected(i));
			List<String> types = engine.client().handle(id).history().stream().map(HistoryEvent::type).toList();
			assertThat(types).as("history of %s", id).filteredOn("ACTIVITY_COMPLETED"::equals).hasSize(3);
			assertThat(types).as("history of %s", id)
				.filteredOn((t) -> t.startsWith("WORKFLOW_") && !t.equals("WORKFLOW_STARTED"))
				.containsExactly("WORKFLOW_COMPLETED");
		}
	}

	private void checkExecutions(List<Execution> executions, Instant killedAt) {
		Map<String, Map<Integer, List<Execution>>> byWorkflow = new TreeMap<>();
		for (Execution e : executions) {
			byWorkflow.computeIfAbsent(e.workflowId(), (k) -> new TreeMap<>())
				.computeIfAbsent(e.step(), (k) -> new ArrayList<>())
				.add(e);
		}
		assertThat(byWorkflow).hasSize(WORKFLOWS);
		List<String> duplicates = new ArrayList<>();
		byWorkflow.forEach((id, steps) -> {
			assertThat(steps.keySet()).as("steps of %s that ran", id).containsExactly(1, 2, 3);
			steps.forEach((step, runs) -> {
				if (runs.size() > 1) {
					// at least once: a step runs again only when an execution was cut
					// short by the kill
					assertThat(runs.get(0).startedAt()).as("first execution of step %d of %s: %s", step, id, runs)
						.isBefore(killedAt);
					duplicates
						.add(id + " step " + step + " attempts " + runs.stream().map(Execution::attempt).toList());
				}
			});
		});
		progress("%d activity executions for %d steps; executed more than once (in flight at the kill): %s",
				executions.size(), WORKFLOWS * 3, duplicates);
	}

	private int signalUntilAccepted(WorkflowEngine engine, int index) {
		int failed = 0;
		while (true) {
			try {
				engine.client().handle(id(index)).signal("go", "go" + index, "go-" + index);
				return failed;
			}
			catch (RuntimeException ex) {
				failed++;
				assertThat(failed).as("failed attempts to signal %s: %s", id(index), ex).isLessThan(200);
				pause(100);
			}
		}
	}

	/**
	 * Fires the workflows' timers and activity retries: workflow time runs 50 times
	 * faster.
	 */
	private Thread driveTheClock() {
		return Thread.ofPlatform().daemon().name("failover-clock").start(() -> {
			while (this.driving) {
				this.clock.advance(Duration.ofSeconds(5));
				pause(100);
			}
		});
	}

	private WorkflowEngine.Builder engine(DataSource engineDataSource, DataSource logDataSource) {
		return WorkflowEngine.builder()
			.dataSource(engineDataSource)
			.schema(SCHEMA)
			.clock(this.clock)
			.pollInterval(Duration.ofMillis(200))
			.heartbeatInterval(Duration.ofMillis(200))
			.deadAfter(Duration.ofSeconds(5))
			.taskTimeout(Duration.ofSeconds(5))
			.shutdownTimeout(Duration.ofSeconds(2))
			.maxConcurrentActivities(WORKFLOWS)
			.register(Chain.class)
			.registerActivities(new LoggingSteps(logDataSource));
	}

	/**
	 * The production settings in small: connections to a dead server fail in seconds, and
	 * the driver re-checks which host is the primary every second instead of trusting
	 * what it saw before the failover for {@code hostRecheckSeconds} (10 s by default).
	 */
	static HikariDataSource pool(PostgresCluster cluster, int size) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(cluster.multiHostUrl() + "&connectTimeout=2&hostRecheckSeconds=1&reWriteBatchedInserts=true");
		config.setUsername("postgres");
		config.setMaximumPoolSize(size);
		config.setMinimumIdle(2);
		config.setConnectionTimeout(3000);
		config.setValidationTimeout(1000);
		return new HikariDataSource(config);
	}

	private static void createLogTable(DataSource dataSource) throws SQLException {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE SCHEMA failover_log");
			statement.execute("CREATE TABLE " + LOG + " (id bigserial PRIMARY KEY, workflow_id text NOT NULL,"
					+ " step int NOT NULL, attempt int NOT NULL, started_at timestamptz NOT NULL DEFAULT clock_timestamp())");
		}
	}

	private static void awaitStreaming(PostgresCluster cluster, String syncState) {
		await("the replica streams (" + syncState + ")").atMost(Duration.ofSeconds(30)).until(() -> {
			try (Connection primary = PostgresCluster.connect(cluster.primaryPort);
					ResultSet rs = primary.createStatement()
						.executeQuery(
								"SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming' AND sync_state = '"
										+ syncState + "'")) {
				rs.next();
				return rs.getInt(1) == 1;
			}
		});
	}

	private static void awaitReplayed(PostgresCluster cluster) {
		await("the replica replayed everything").atMost(Duration.ofSeconds(30)).until(() -> {
			try (Connection primary = PostgresCluster.connect(cluster.primaryPort);
					ResultSet rs = primary.createStatement()
						.executeQuery("SELECT count(*) FROM pg_stat_replication"
								+ " WHERE replay_lsn >= pg_current_wal_lsn()")) {
				rs.next();
				return rs.getInt(1) == 1;
			}
		});
	}

	private static int count(DataSource dataSource, String where) throws SQLException {
		try (Connection connection = dataSource.getConnection();
				ResultSet rs = connection.createStatement()
					.executeQuery("SELECT count(DISTINCT workflow_id) FROM " + LOG + " WHERE " + where)) {
			rs.next();
			return rs.getInt(1);
		}
	}

	private static int completed(int port) throws SQLException {
		try (Connection connection = PostgresCluster.connect(port);
				ResultSet rs = connection.createStatement()
					.executeQuery("SELECT count(*) FROM " + SCHEMA + ".workflow_run WHERE status = 'COMPLETED'")) {
			rs.next();
			return rs.getInt(1);
		}
	}

	private static int runs(Connection connection, String idPattern) throws SQLException {
		try (PreparedStatement query = connection
			.prepareStatement("SELECT count(*) FROM " + SCHEMA + ".workflow_run WHERE workflow_id LIKE ?")) {
			query.setString(1, idPattern);
			try (ResultSet rs = query.executeQuery()) {
				rs.next();
				return rs.getInt(1);
			}
		}
	}

	private static int listeners(int port) throws SQLException {
		try (Connection connection = PostgresCluster.connect(port);
				ResultSet rs = connection.createStatement()
					.executeQuery(
							"SELECT count(*) FROM pg_stat_activity WHERE query = 'LISTEN durable_" + SCHEMA + "'")) {
			rs.next();
			return rs.getInt(1);
		}
	}

	/**
	 * Terminates every listening connection on the server as soon as it appears, for a
	 * while.
	 */
	private static int keepListenersOff(int port, Duration gap) throws SQLException {
		int terminated = 0;
		long end = System.nanoTime() + gap.toNanos();
		try (Connection connection = PostgresCluster.connect(port)) {
			while (System.nanoTime() < end) {
				try (ResultSet rs = connection.createStatement()
					.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query = 'LISTEN"
							+ " durable_" + SCHEMA + "' AND pid <> pg_backend_pid()")) {
					rs.next();
					terminated += rs.getInt(1);
				}
				pause(20);
			}
		}
		return terminated;
	}

	private static int commitsBetween(Connection connection, Instant from, Instant to) throws SQLException {
		try (PreparedStatement query = connection.prepareStatement("SELECT count(DISTINCT xmin::text) FROM " + SCHEMA
				+ ".history WHERE pg_xact_commit_timestamp(xmin) BETWEEN ? AND ?")) {
			query.setTimestamp(1, Timestamp.from(from));
			query.setTimestamp(2, Timestamp.from(to));
			try (ResultSet rs = query.executeQuery()) {
				rs.next();
				return rs.getInt(1);
			}
		}
	}

	/**
	 * The first commit of an engine table's row after the kill (track_commit_timestamp is
	 * on).
	 */
	private static Instant firstCommitAfter(Connection connection, Instant killedAt) throws SQLException {
		try (PreparedStatement query = connection.prepareStatement("SELECT min(pg_xact_commit_timestamp(xmin)) FROM "
				+ SCHEMA + ".history WHERE pg_xact_commit_timestamp(xmin) > ?")) {
			query.setTimestamp(1, Timestamp.from(killedAt));
			try (ResultSet rs = query.executeQuery()) {
				rs.next();
				return rs.getTimestamp(1).toInstant();
			}
		}
	}

	private static Instant firstExecutionAfter(Connection connection, Instant killedAt) throws SQLException {
		try (PreparedStatement query = connection
			.prepareStatement("SELECT min(started_at) FROM " + LOG + " WHERE started_at > ?")) {
			query.setTimestamp(1, Timestamp.from(killedAt));
			try (ResultSet rs = query.executeQuery()) {
				rs.next();
				return rs.getTimestamp(1).toInstant();
			}
		}
	}

	private static List<Execution> executions(DataSource dataSource) throws SQLException {
		List<Execution> executions = new ArrayList<>();
		try (Connection connection = dataSource.getConnection();
				ResultSet rs = connection.createStatement()
					.executeQuery(
							"SELECT workflow_id, step, attempt, started_at FROM " + LOG + " ORDER BY started_at, id")) {
			while (rs.next()) {
				executions
					.add(new Execution(rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getTimestamp(4).toInstant()));
			}
		}
		return executions;
	}

	private static String id(int index) {
		return "failover-" + index;
	}

	private static long millis(Instant from, Instant to) {
		return Duration.between(from, to).toMillis();
	}

	private <T extends AutoCloseable> T track(T closeable) {
		this.closeables.add(closeable);
		return closeable;
	}

	private void progress(String format, Object... args) {
		System.out.printf("[PrimaryFailoverIT +%d ms] %s%n", (System.nanoTime() - this.began) / 1_000_000,
				String.format(format, args));
	}

	private static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
