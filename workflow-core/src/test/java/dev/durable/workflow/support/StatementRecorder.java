package dev.durable.workflow.support;

import java.lang.reflect.InvocationHandler;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

/**
 * A data source that writes down every statement prepared on its connections, with the
 * thread that prepared it and a global order: to show which thread read or wrote what,
 * and when.
 */
public final class StatementRecorder {

	/**
	 * A statement prepared on a connection.
	 *
	 * @param seq global order of preparation
	 * @param thread the thread that prepared it
	 * @param sql its text
	 */
	public record Statement(long seq, Thread thread, String sql) {
	}

	private final List<Statement> statements = new CopyOnWriteArrayList<>();

	private final AtomicLong seq = new AtomicLong();

	private final DataSource dataSource;

	public StatementRecorder(DataSource target) {
		this.dataSource = JdbcProxies.dataSource(target, this::recording);
	}

	/** The recording data source, to give to the engine. */
	public DataSource dataSource() {
		return this.dataSource;
	}

	/** What the thread prepared, in order. */
	public List<Statement> of(Thread thread) {
		return this.statements.stream().filter((s) -> s.thread() == thread).toList();
	}

	/** Everything prepared, in order. */
	public List<Statement> all() {
		return List.copyOf(this.statements);
	}

	private InvocationHandler recording(Connection target) {
		return (proxy, method, args) -> {
			if (JdbcProxies.isIdentity(method)) {
				return JdbcProxies.identity(proxy, method, args);
			}
			if (method.getName().startsWith("prepare") || method.getName().equals("createStatement")) {
				String sql = JdbcProxies.sql(args, "<statement>");
				this.statements.add(new Statement(this.seq.incrementAndGet(), Thread.currentThread(), sql));
			}
			return JdbcProxies.invoke(target, method, args);
		};
	}

}
