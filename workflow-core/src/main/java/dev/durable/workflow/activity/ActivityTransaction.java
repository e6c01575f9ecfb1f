package dev.durable.workflow.activity;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DataSourceUtils;

import dev.durable.workflow.internal.activity.TransactionScope;

/**
 * The transaction of the {@link ActivityMethod#transactional() transactional activity}
 * running on the current thread, for code that uses plain JDBC (without Spring, or
 * without a {@code JdbcTemplate}):
 *
 * <pre>{@code
 * &#64;ActivityMethod(transactional = true)
 * public void reserve(String orderId) {
 *     try (PreparedStatement insert = ActivityTransaction.connection()
 *             .prepareStatement("INSERT INTO reservation (order_id) VALUES (?)")) {
 *         insert.setString(1, orderId);
 *         insert.executeUpdate();
 *     }
 * }
 * }</pre>
 *
 * The engine commits the transaction after the method returns, together with the record
 * of the activity's completion, and rolls it back when the method throws. Code under
 * Spring reaches the same transaction through any {@code JdbcTemplate} or
 * {@code DataSourceUtils} on the engine's {@code DataSource}.
 */
public final class ActivityTransaction {

	private ActivityTransaction() {
	}

	/** Whether the current thread runs a transactional activity's attempt. */
	public static boolean isActive() {
		return TransactionScope.current() != null;
	}

	/**
	 * The connection of the current transactional activity's transaction. Do not commit,
	 * roll back or change its auto-commit mode: the engine does; closing it does nothing
	 * (the engine releases it), so try-with-resources is safe.
	 * @throws IllegalStateException outside a transactional activity's attempt
	 */
	public static Connection connection() {
		DataSource dataSource = TransactionScope.current();
		if (dataSource == null) {
			throw new IllegalStateException("No transactional activity runs on this thread: ActivityTransaction"
					+ ".connection() is for methods annotated @ActivityMethod(transactional = true), while they run");
		}
		Connection connection = DataSourceUtils.getConnection(dataSource);
		return (Connection) Proxy.newProxyInstance(ActivityTransaction.class.getClassLoader(),
				new Class<?>[] { Connection.class }, (proxy, method, args) -> {
					switch (method.getName()) {
						case "close":
							return null;
						case "isClosed":
							return connection.isClosed();
						case "unwrap":
							if (((Class<?>) args[0]).isInstance(proxy)) {
								return proxy;
							}
							break;
						case "equals":
							return proxy == args[0];
						case "hashCode":
							return System.identityHashCode(proxy);
						default:
							break;
					}
					try {
						return method.invoke(connection, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getTargetException();
					}
				});
	}

}
