package dev.durable.workflow.support;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

/**
 * What the recording data sources of the tests share: a proxy per connection, identity,
 * unwrapping.
 */
public final class JdbcProxies {

	/** Makes the handler of one connection's proxy. */
	public interface ConnectionHandler {

		InvocationHandler of(Connection connection) throws SQLException;

	}

	private JdbcProxies() {
	}

	/**
	 * A data source whose connections are proxies with handlers made by {@code handler}.
	 */
	public static DataSource dataSource(DataSource target, ConnectionHandler handler) {
		return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
				new Class<?>[] { DataSource.class }, (proxy, method, args) -> {
					if (isIdentity(method)) {
						return identity(proxy, method, args);
					}
					Object result = invoke(target, method, args);
					if (result instanceof Connection connection) {
						return Proxy.newProxyInstance(Connection.class.getClassLoader(),
								new Class<?>[] { Connection.class }, handler.of(connection));
					}
					return result;
				});
	}

	/**
	 * Whether the method is {@code equals} or {@code hashCode}, which a proxy answers
	 * itself.
	 */
	static boolean isIdentity(Method method) {
		return method.getName().equals("equals") || method.getName().equals("hashCode");
	}

	/** {@code equals} and {@code hashCode} of a proxy: its own identity. */
	static Object identity(Object proxy, Method method, Object[] args) {
		return method.getName().equals("equals") ? (Object) (proxy == args[0]) : System.identityHashCode(proxy);
	}

	/**
	 * The SQL text a JDBC call was given as its first argument, else {@code otherwise}.
	 */
	static String sql(Object[] args, String otherwise) {
		return (args != null && args.length > 0 && args[0] instanceof String text) ? text : otherwise;
	}

	/** Calls the target, throwing what the target threw. */
	public static Object invoke(Object target, Method method, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

}
