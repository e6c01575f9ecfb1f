package dev.durable.benchmarks.compare;

import com.zaxxer.hikari.HikariDataSource;

/**
 * What both contenders share: their database on the shared server, their connection pool,
 * and the close rules of {@link Contender} (the pool closes after the engine stops).
 */
abstract class PooledContender implements Contender {

	private final String database;

	private final HikariDataSource pool;

	private volatile boolean keepOpen;

	PooledContender(HikariDataSource pool, String database) {
		this.pool = pool;
		this.database = database;
	}

	/** Stops the engine; its pool is closed afterwards. */
	abstract void stopEngine();

	@Override
	public String database() {
		return this.database;
	}

	@Override
	public HikariDataSource pool() {
		return this.pool;
	}

	@Override
	public void keepOpen() {
		this.keepOpen = true;
	}

	@Override
	public void close() {
		if (!this.keepOpen) {
			closeNow();
		}
	}

	@Override
	public void closeNow() {
		try {
			stopEngine();
		}
		finally {
			this.pool.close();
		}
	}

}
