package dev.durable.benchmarks.compare;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The server's counters that a scenario is charged with, read over a connection to the
 * {@code postgres} database (so reading them adds nothing to the engines' databases).
 * <p>
 * A backend adds its counts to the shared statistics when it goes idle, but at most once
 * a second: what it did in its last second stays pending for up to 10 s (PostgreSQL's
 * {@code PGSTAT_IDLE_INTERVAL}), or until it exits. So before each reading the idle
 * connections of the engine's pool are evicted (their backends exit and report
 * everything) and the pool refills. A new connection commits a transaction of its own
 * while it starts; that cost is calibrated once ({@link #calibrate}) and subtracted, so
 * the transactions reported are the engine's.
 */
final class PgCounters implements AutoCloseable {

	private final HikariDataSource pool;

	private final JdbcTemplate jdbc;

	private final Duration settle;

	/** Committed transactions a new connection adds by starting. */
	private double perConnection;

	/** By database: the transactions added by the reconnections this class caused. */
	private final Map<String, Double> reconnectTransactions = new ConcurrentHashMap<>();

	private final CpuCounters cpu;

	PgCounters(HikariDataSource pool, Duration settle) {
		this.pool = pool;
		this.jdbc = new JdbcTemplate(pool);
		this.settle = settle;
		Long backend = this.jdbc.queryForObject("SELECT pg_backend_pid()", Long.class);
		this.cpu = new CpuCounters((backend != null) ? CpuCounters.parentOf(backend) : 0);
	}

	/** Whether the CPU times of the server can be read (Linux). */
	boolean cpuAvailable() {
		return this.cpu.available();
	}

	/**
	 * Measures what a new connection adds to {@code xact_commit} by itself, with an idle
	 * pool on an otherwise unused database.
	 */
	double calibrate(HikariDataSource idlePool, String database) {
		Snapshot before = read(database, idlePool);
		int reconnected = flush(idlePool);
		Snapshot after = rawRead(database);
		this.perConnection = (reconnected > 0) ? (after.xactCommit() - before.xactCommit()) / (double) reconnected : 0;
		return this.perConnection;
	}

	/** Waits a moment, so that work in flight ends. */
	void settle() {
		if (this.settle.isZero()) {
			return;
		}
		try {
			Thread.sleep(this.settle);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Settles, makes the pool's connections report their counts (by replacing them), then
	 * reads the counters of one database and of the server's WAL.
	 */
	Snapshot read(String database, HikariDataSource enginePool) {
		return read(database, List.of(enginePool));
	}

	/**
	 * {@link #read(String, HikariDataSource)} of an engine, with every pool its nodes
	 * use.
	 */
	Snapshot read(Contender engine) {
		return read(engine.database(), engine.pools());
	}

	private Snapshot read(String database, List<HikariDataSource> enginePools) {
		settle();
		int reconnected = 0;
		for (HikariDataSource enginePool : enginePools) {
			reconnected += flush(enginePool);
		}
		double added = this.reconnectTransactions.merge(database, reconnected * this.perConnection, Double::sum);
		Snapshot raw = rawRead(database);
		return new Snapshot(Math.round(raw.xactCommit() - added), raw.walSync(), raw.databaseBytes(), raw.cpu());
	}

	/**
	 * Evicts the idle connections and waits until the pool has refilled; returns how many
	 * were replaced.
	 */
	private int flush(HikariDataSource enginePool) {
		HikariPoolMXBean mx = enginePool.getHikariPoolMXBean();
		int idle = mx.getIdleConnections();
		mx.softEvictConnections();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (mx.getTotalConnections() < enginePool.getMaximumPoolSize() && System.nanoTime() < deadline) {
			sleepMillis(10);
		}
		// the exiting backends report their counts as they go
		sleepMillis(100);
		return idle;
	}

	private Snapshot rawRead(String database) {
		return this.jdbc.queryForObject("""
				SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = ?) AS xact_commit,
				       (SELECT wal_sync FROM pg_stat_wal) AS wal_sync,
				       pg_database_size(?) AS size""",
				(rs, n) -> new Snapshot(rs.getLong(1), rs.getLong(2), rs.getLong(3), this.cpu.read()), database,
				database);
	}

	private static void sleepMillis(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		this.pool.close();
	}

	/**
	 * The counters at one moment.
	 *
	 * @param xactCommit committed transactions of the database
	 * ({@code pg_stat_database.xact_commit})
	 * @param walSync WAL flushes of the whole server ({@code pg_stat_wal.wal_sync})
	 * @param databaseBytes {@code pg_database_size}
	 * @param cpu CPU time used by this JVM and by the server
	 */
	record Snapshot(long xactCommit, long walSync, long databaseBytes, CpuCounters.Reading cpu) {

		Snapshot minus(Snapshot earlier) {
			return new Snapshot(this.xactCommit - earlier.xactCommit, this.walSync - earlier.walSync,
					this.databaseBytes - earlier.databaseBytes, this.cpu.minus(earlier.cpu));
		}

	}

}
