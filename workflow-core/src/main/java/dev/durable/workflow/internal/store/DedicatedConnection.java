package dev.durable.workflow.internal.store;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * One connection kept for one purpose, outside the pool the engine's work takes its
 * connections from: the heartbeat's. A node whose pool is busy (an overloaded machine, a
 * burst of work) must still renew its lease, or it fences itself with the database
 * answering; waiting for a pooled connection behind the work it guards would make it do
 * so. The connection is opened once from the direct data source (see
 * {@code WorkflowEngine.Builder#directDataSource}), under the engine's network timeout,
 * and opened anew after a statement on it failed (a partition, a database restart). Used
 * by one thread at a time; closing what {@link #getConnection()} returns keeps the
 * connection.
 */
public final class DedicatedConnection extends DelegatingDataSource implements AutoCloseable {

	private final DataSource source;

	private final int timeoutMillis;

	private @Nullable Connection connection;

	private boolean broken;

	private boolean closed;

	/**
	 * @param source where the connection comes from (a direct session, not the work's
	 * pool)
	 * @param statementTimeout how long a statement on it may wait for the database
	 */
	public DedicatedConnection(DataSource source, Duration statementTimeout) {
		super(source);
		this.source = source;
		this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, statementTimeout.toMillis()));
	}

	@Override
	public synchronized Connection getConnection() throws SQLException {
		if (this.closed) {
			throw new SQLException("The engine stopped: its heartbeat connection is closed");
		}
		if (this.connection != null && (this.broken || this.connection.isClosed())) {
			discard();
		}
		if (this.connection == null) {
			Connection opened = this.source.getConnection();
			try {
				opened.setNetworkTimeout(Runnable::run, this.timeoutMillis);
				if (!opened.getAutoCommit()) {
					opened.setAutoCommit(true);
				}
			}
			catch (SQLException | RuntimeException ex) {
				opened.close();
				throw ex;
			}
			this.connection = opened;
			this.broken = false;
		}
		Connection current = this.connection;
		return (Connection) Proxy.newProxyInstance(DedicatedConnection.class.getClassLoader(),
				new Class<?>[] { Connection.class }, new Kept(current));
	}

	@Override
	public Connection getConnection(String username, String password) throws SQLException {
		throw new SQLFeatureNotSupportedException("The heartbeat's connection has the direct data source's user");
	}

	/** A statement on it failed: the next {@link #getConnection()} opens another. */
	private synchronized void failed(Connection failed) {
		if (failed == this.connection) {
			this.broken = true;
		}
	}

	private void discard() {
		Connection old = this.connection;
		this.connection = null;
		if (old != null) {
			if (this.broken) {
				// its socket may hang on a silent network: the abort closes it without
				// waiting (a healthy one is closed in order: a pool would otherwise log
				// the aborted connection it gets back as broken)
				try {
					old.abort(Runnable::run);
				}
				catch (SQLException | RuntimeException ex) {
					// already closed
				}
			}
			try {
				// a pooled one goes back to its pool, which sees it broken
				old.close();
			}
			catch (SQLException | RuntimeException ex) {
				// already closed
			}
		}
	}

	/** Closes the connection (the engine stops); nothing is opened afterwards. */
	@Override
	public synchronized void close() {
		this.closed = true;
		discard();
	}

	/**
	 * The connection as lent: closing it keeps it; a failure marks it to be opened anew.
	 */
	private final class Kept implements InvocationHandler {

		private final Connection connection;

		Kept(Connection connection) {
			this.connection = connection;
		}

		@Override
		public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
			switch (method.getName()) {
				case "equals":
					return proxy == args[0];
				case "hashCode":
					return System.identityHashCode(proxy);
				case "toString":
					return "heartbeat's " + this.connection;
				case "close":
					return null;
				case "isClosed":
					return false;
				default:
					break;
			}
			try {
				Object result = method.invoke(this.connection, args);
				// statements fail through their own objects: any SQLException there may
				// be a lost connection
				if (result instanceof java.sql.Statement statement) {
					return wrapStatement(statement);
				}
				return result;
			}
			catch (InvocationTargetException ex) {
				failed(this.connection);
				throw ex.getTargetException();
			}
		}

		private Object wrapStatement(java.sql.Statement statement) {
			Class<?>[] types = (statement instanceof java.sql.CallableStatement)
					? new Class<?>[] { java.sql.CallableStatement.class }
					: (statement instanceof java.sql.PreparedStatement)
							? new Class<?>[] { java.sql.PreparedStatement.class }
							: new Class<?>[] { java.sql.Statement.class };
			return Proxy.newProxyInstance(DedicatedConnection.class.getClassLoader(), types, (p, m, a) -> {
				try {
					return m.invoke(statement, a);
				}
				catch (InvocationTargetException ex) {
					if (ex.getTargetException() instanceof SQLException) {
						failed(this.connection);
					}
					throw ex.getTargetException();
				}
			});
		}

	}

}
