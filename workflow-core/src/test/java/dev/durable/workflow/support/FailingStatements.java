package dev.durable.workflow.support;

import java.lang.reflect.InvocationHandler;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

/**
 * A data source whose statements containing a given piece of SQL fail, a set number of
 * times, as they would while the database restarts or a node's connections are cut
 * (SQLState 08006): to show what the engine does when one particular write cannot reach
 * the database.
 */
public final class FailingStatements {

	private final DataSource dataSource;

	private final String fragment;

	private final AtomicInteger failuresLeft = new AtomicInteger();

	private final AtomicInteger failed = new AtomicInteger();

	public FailingStatements(DataSource target, String fragment) {
		this.fragment = fragment;
		this.dataSource = JdbcProxies.dataSource(target, this::failing);
	}

	/** The failing data source, to give to the engine. */
	public DataSource dataSource() {
		return this.dataSource;
	}

	/** The next {@code times} statements that contain the fragment fail. */
	public void failNext(int times) {
		this.failuresLeft.set(times);
	}

	/** How many statements failed so far. */
	public int failed() {
		return this.failed.get();
	}

	private InvocationHandler failing(Connection target) {
		return (proxy, method, args) -> {
			if (JdbcProxies.isIdentity(method)) {
				return JdbcProxies.identity(proxy, method, args);
			}
			if (method.getName().startsWith("prepare") && JdbcProxies.sql(args, "").contains(this.fragment)
					&& this.failuresLeft.getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
				this.failed.incrementAndGet();
				throw new SQLException("An I/O error occurred while sending to the backend (simulated)", "08006");
			}
			return JdbcProxies.invoke(target, method, args);
		};
	}

}
