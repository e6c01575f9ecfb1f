package dev.durable.workflow.support;

import java.lang.reflect.InvocationHandler;
import java.sql.Connection;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

/**
 * A data source that runs an action once, on the preparing thread, just before the first
 * statement containing a given piece of SQL is prepared: to put another session's change
 * exactly between two statements of the engine (a run closed between a sender's lookup
 * and its send).
 */
public final class BeforeStatement {

	private final DataSource dataSource;

	private final String fragment;

	private final Runnable action;

	private final AtomicBoolean fired = new AtomicBoolean();

	public BeforeStatement(DataSource target, String fragment, Runnable action) {
		this.fragment = fragment;
		this.action = action;
		this.dataSource = JdbcProxies.dataSource(target, this::intercepting);
	}

	/** The intercepting data source, to give to the engine. */
	public DataSource dataSource() {
		return this.dataSource;
	}

	/** Whether the action ran. */
	public boolean fired() {
		return this.fired.get();
	}

	private InvocationHandler intercepting(Connection target) {
		return (proxy, method, args) -> {
			if (JdbcProxies.isIdentity(method)) {
				return JdbcProxies.identity(proxy, method, args);
			}
			if (method.getName().startsWith("prepare") && JdbcProxies.sql(args, "").contains(this.fragment)
					&& this.fired.compareAndSet(false, true)) {
				this.action.run();
			}
			return JdbcProxies.invoke(target, method, args);
		};
	}

}
