package dev.durable.workflow.support;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

/**
 * The test database, whose first {@code failures} reads of the database's clock (the
 * engine's {@code SELECT clock_timestamp()}) fail as a connection the pool could not give
 * would: the schema migration and everything else pass.
 */
public final class FailingClockReads {

	/** How many reads of the clock are left to fail. */
	public final AtomicInteger failures;

	public final DataSource dataSource;

	/**
	 * @param failures how many of the first reads of the clock fail
	 */
	public FailingClockReads(int failures) {
		this.failures = new AtomicInteger(failures);
		this.dataSource = proxy(DataSource.class, TestDatabase.dataSource(), (target, method, args) -> {
			Object result = method.invoke(target, args);
			return (result instanceof Connection connection) ? connection(connection) : result;
		});
	}

	private Connection connection(Connection connection) {
		return proxy(Connection.class, connection, (target, method, args) -> {
			if (method.getName().equals("prepareStatement") && args.length > 0 && fails(args[0])) {
				throw new SQLException("simulated: no connection to read the database's clock");
			}
			Object result = method.invoke(target, args);
			return (result instanceof Statement statement && method.getName().equals("createStatement"))
					? statement(statement) : result;
		});
	}

	private Statement statement(Statement statement) {
		return proxy(Statement.class, statement, (target, method, args) -> {
			if (method.getName().startsWith("execute") && args != null && args.length > 0 && fails(args[0])) {
				throw new SQLException("simulated: no connection to read the database's clock");
			}
			return method.invoke(target, args);
		});
	}

	private boolean fails(Object sql) {
		return "SELECT clock_timestamp()".equals(sql) && this.failures.getAndUpdate((n) -> Math.max(0, n - 1)) > 0;
	}

	private interface Call {

		Object call(Object target, Method method, Object[] args) throws Throwable;

	}

	@SuppressWarnings("unchecked")
	private static <T> T proxy(Class<T> type, T target, Call call) {
		InvocationHandler handler = (p, method, args) -> {
			try {
				return call.call(target, method, args);
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
		};
		return (T) Proxy.newProxyInstance(FailingClockReads.class.getClassLoader(), new Class<?>[] { type }, handler);
	}

}
