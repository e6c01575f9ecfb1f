package dev.durable.workflow.support;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

/**
 * A data source that runs an action once, on the querying thread, right after the first
 * query containing a given piece of SQL has been answered and before the engine reads its
 * result: to put another session's change, or a clock move, exactly between the engine's
 * read and what it decides from it.
 */
public final class AfterQuery {

	private final DataSource dataSource;

	private final String fragment;

	private final Runnable action;

	private final AtomicBoolean fired = new AtomicBoolean();

	private final AtomicInteger answered = new AtomicInteger();

	public AfterQuery(DataSource target, String fragment, Runnable action) {
		this.fragment = fragment;
		this.action = action;
		this.dataSource = JdbcProxies.dataSource(target, this::intercepting);
	}

	/** The intercepting data source, to give to the engine. */
	public DataSource dataSource() {
		return this.dataSource;
	}

	/** How many queries containing the SQL were answered so far. */
	public int answered() {
		return this.answered.get();
	}

	private InvocationHandler intercepting(Connection target) {
		return (proxy, method, args) -> {
			if (JdbcProxies.isIdentity(method)) {
				return JdbcProxies.identity(proxy, method, args);
			}
			Object result = JdbcProxies.invoke(target, method, args);
			if (method.getName().equals("prepareStatement") && result instanceof PreparedStatement statement
					&& JdbcProxies.sql(args, "").contains(this.fragment)) {
				return afterQuery(statement);
			}
			return result;
		};
	}

	private PreparedStatement afterQuery(PreparedStatement target) {
		return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
				new Class<?>[] { PreparedStatement.class }, (proxy, method, args) -> {
					if (JdbcProxies.isIdentity(method)) {
						return JdbcProxies.identity(proxy, method, args);
					}
					Object result = JdbcProxies.invoke(target, method, args);
					if (method.getName().equals("executeQuery")) {
						this.answered.incrementAndGet();
						if (this.fired.compareAndSet(false, true)) {
							this.action.run();
						}
					}
					return result;
				});
	}

}
