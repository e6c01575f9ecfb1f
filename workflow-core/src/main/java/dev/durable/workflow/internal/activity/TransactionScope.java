package dev.durable.workflow.internal.activity;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

/**
 * The data source whose transaction the current thread's transactional activity runs in,
 * for {@link dev.durable.workflow.activity.ActivityTransaction}. A plain thread local: an
 * attempt runs on one thread from its start to its commit.
 */
public final class TransactionScope {

	private static final ThreadLocal<DataSource> CURRENT = new ThreadLocal<>();

	private TransactionScope() {
	}

	public static @Nullable DataSource current() {
		return CURRENT.get();
	}

	public static void enter(DataSource dataSource) {
		CURRENT.set(dataSource);
	}

	public static void exit() {
		CURRENT.remove();
	}

}
