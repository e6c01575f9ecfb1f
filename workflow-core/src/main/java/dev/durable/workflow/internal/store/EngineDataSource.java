package dev.durable.workflow.internal.store;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.sql.Statement;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.slf4j.LoggerFactory;
import org.springframework.core.InfrastructureProxy;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import dev.durable.workflow.internal.support.NodeFencedException;

/**
 * The connections the engine's own statements run on: those of the application's data
 * source, each under a network timeout while the engine holds it, and none at all while
 * the node is fenced. A network partition drops packets rather than resetting
 * connections, so without the timeout a statement would wait for TCP to give up, many
 * minutes; the timeout is the connection's ({@link Connection#setNetworkTimeout}), set
 * when the engine takes it and restored when it gives it back, so that the application's
 * own statements on the same data source keep their settings. A connection the engine
 * joins (the transaction of a transactional activity, or one an application's transaction
 * holds) is not the engine's and is left as it is.
 * <p>
 * The server must also learn that a silent node is gone: a partitioned node's open
 * transactions would otherwise keep their row and unique-key locks, and the statements of
 * healthy nodes wait on them, until TCP gives up. So each physical connection the engine
 * takes gets, once (the first time the engine takes it, in one round trip), the
 * {@link SessionTimeouts} of the engine's settings:
 * {@code idle_in_transaction_session_timeout} and TCP keepalive and user timeouts. They
 * are session settings, so the application's own statements on the same pooled connection
 * see them too.
 * <p>
 * As an {@link InfrastructureProxy} of the application's data source it is the same data
 * source to Spring's transaction synchronization: a transaction the engine starts binds
 * its connection where the application's code finds it, and the engine's statements join
 * the application's transactions as before.
 */
public final class EngineDataSource extends DelegatingDataSource implements InfrastructureProxy {

	/** Whether the engine may take connections now. */
	@FunctionalInterface
	public interface Gate {

		/** Why the engine may take no connection now, or {@code null} when it may. */
		@Nullable String closedReason();

	}

	private final DataSource target;

	private final int timeoutMillis;

	private final @Nullable Gate gate;

	/**
	 * The connections the engine holds now (shared by the gated and the ungated view).
	 */
	private final Set<Connection> held;

	/**
	 * The session settings each physical connection gets once (none: the engine sets
	 * nothing).
	 */
	private final @Nullable SessionTimeouts sessions;

	/**
	 * The physical connections that got them (weakly: the pool may close and drop them).
	 */
	private final Set<Object> configured;

	/**
	 * @param target the application's data source
	 * @param statementTimeout how long one of the engine's statements may wait for the
	 * database
	 * @param gate what closes the engine's access while the node is fenced
	 */
	public EngineDataSource(DataSource target, Duration statementTimeout, Gate gate) {
		this(target, statementTimeout, gate, null);
	}

	/**
	 * @param target the application's data source
	 * @param statementTimeout how long one of the engine's statements may wait for the
	 * database
	 * @param gate what closes the engine's access while the node is fenced
	 * @param sessions the session settings of the engine's physical connections
	 * ({@code null}: none)
	 */
	public EngineDataSource(DataSource target, Duration statementTimeout, Gate gate,
			@Nullable SessionTimeouts sessions) {
		this(target, (int) Math.min(Integer.MAX_VALUE, Math.max(1, statementTimeout.toMillis())), gate,
				ConcurrentHashMap.newKeySet(), sessions,
				Collections.newSetFromMap(Collections.synchronizedMap(new WeakHashMap<>())));
	}

	private EngineDataSource(DataSource target, int timeoutMillis, @Nullable Gate gate, Set<Connection> held,
			@Nullable SessionTimeouts sessions, Set<Object> configured) {
		super(target);
		this.target = target;
		this.timeoutMillis = timeoutMillis;
		this.gate = gate;
		this.held = held;
		this.sessions = sessions;
		this.configured = configured;
	}

	/**
	 * The same connections without the gate: the heartbeat's, which must reach the
	 * database while the node is fenced (its success is what lifts the fence).
	 */
	public EngineDataSource ungated() {
		return new EngineDataSource(this.target, this.timeoutMillis, null, this.held, this.sessions, this.configured);
	}

	/**
	 * Aborts every connection the engine holds now (the node fenced itself): statements
	 * waiting on a silent network fail at once instead of at their timeout, and nothing
	 * more is sent on them. Each abort runs on a thread of its own, as closing a socket
	 * may block.
	 */
	public void abortAll() {
		for (Connection connection : List.copyOf(this.held)) {
			Thread.ofVirtual().name("durable-abort").start(() -> {
				try {
					connection.abort(Runnable::run);
				}
				catch (SQLException | RuntimeException ex) {
					// already closed or broken: nothing to stop
				}
			});
		}
	}

	@Override
	public Connection getConnection() throws SQLException {
		return held(openOrThrow().target.getConnection());
	}

	@Override
	public Connection getConnection(String username, String password) throws SQLException {
		return held(openOrThrow().target.getConnection(username, password));
	}

	private EngineDataSource openOrThrow() throws SQLException {
		String reason = (this.gate != null) ? this.gate.closedReason() : null;
		if (reason != null) {
			throw new NodeFencedException(reason);
		}
		return this;
	}

	private Connection held(Connection connection) throws SQLException {
		int previous;
		try {
			previous = connection.getNetworkTimeout();
			connection.setNetworkTimeout(Runnable::run, this.timeoutMillis);
			configure(connection);
		}
		catch (SQLException | RuntimeException ex) {
			connection.close();
			throw ex;
		}
		this.held.add(connection);
		return (Connection) Proxy.newProxyInstance(EngineDataSource.class.getClassLoader(),
				new Class<?>[] { Connection.class }, new Held(connection, previous));
	}

	/**
	 * Gives a physical connection the session settings the first time the engine takes
	 * it: one round trip per physical connection, none on later takes. Only a connection
	 * in auto-commit mode (a SET in a transaction would roll back with it) of the
	 * PostgreSQL driver (its physical connection is what is remembered) gets them.
	 */
	private void configure(Connection connection) throws SQLException {
		if (this.sessions == null || !connection.isWrapperFor(PGConnection.class)) {
			return;
		}
		PGConnection physical = connection.unwrap(PGConnection.class);
		if (this.configured.contains(physical) || !connection.getAutoCommit()) {
			return;
		}
		try (Statement statement = connection.createStatement()) {
			statement.execute(this.sessions.sql());
		}
		catch (SQLException ex) {
			if (connection.isClosed() || !connection.isValid(1)) {
				throw ex;
			}
			// a server without one of the settings (or a pooler refusing it): the
			// connection works without
			LoggerFactory.getLogger(EngineDataSource.class)
				.warn("Could not set the engine's session timeouts ({}): {}", this.sessions.sql(), ex.getMessage());
		}
		this.configured.add(physical);
	}

	/** The engine's hold of a connection: gives it back with its own network timeout. */
	private final class Held implements InvocationHandler {

		private final Connection connection;

		private final int previousTimeout;

		Held(Connection connection, int previousTimeout) {
			this.connection = connection;
			this.previousTimeout = previousTimeout;
		}

		@Override
		public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
			switch (method.getName()) {
				case "equals":
					return proxy == args[0];
				case "hashCode":
					return System.identityHashCode(proxy);
				case "toString":
					return "engine's " + this.connection;
				case "close":
					release();
					break;
				case "rollback":
					if (args == null && this.connection.isClosed()) {
						// aborted by the fence, or broken: its transaction ended with it
						// on the server.
						// A rollback that threw here would replace the statement's own
						// failure (Spring's
						// transaction template logs that as an ERROR) with "Connection is
						// closed"
						return null;
					}
					break;
				default:
					break;
			}
			try {
				return method.invoke(this.connection, args);
			}
			catch (InvocationTargetException ex) {
				throw ex.getTargetException();
			}
		}

		private void release() {
			if (EngineDataSource.this.held.remove(this.connection)) {
				try {
					if (!this.connection.isClosed()) {
						this.connection.setNetworkTimeout(Runnable::run, this.previousTimeout);
					}
				}
				catch (SQLException | RuntimeException ex) {
					// broken: closing it below lets the pool see it
				}
			}
		}

	}

	@Override
	public Object getWrappedObject() {
		return this.target;
	}

}
