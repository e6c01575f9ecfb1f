package dev.durable.workflow.support;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import javax.sql.DataSource;

/**
 * A data source that writes down the transactions made on its connections: the statements
 * prepared between {@code setAutoCommit(false)} and {@code commit()} or
 * {@code rollback()}, how the transaction ended and on which thread. A statement prepared
 * in autocommit is a transaction of its own. To show what was written together, and what
 * was written alone.
 */
public final class TransactionRecorder {

	/** How a transaction ended. */
	public enum End {

		/** One statement in autocommit. */
		AUTOCOMMIT,

		/**
		 * A JDBC batch in autocommit: its statements, sent before one Sync, are one
		 * implicit transaction, committed at that Sync.
		 */
		AUTOCOMMIT_BATCH,

		/**
		 * A JDBC batch in autocommit that failed: a statement's error rolls the whole
		 * batch back.
		 */
		AUTOCOMMIT_BATCH_FAILED,

		/** Committed. */
		COMMITTED,

		/** Rolled back. */
		ROLLED_BACK,

		/** {@code commit()} threw. */
		COMMIT_FAILED

	}

	/**
	 * A transaction that ended.
	 *
	 * @param thread the thread that ended it
	 * @param statements the statements prepared in it, in order
	 * @param end how it ended
	 */
	public record Transaction(Thread thread, List<String> statements, End end) {

		/** How many of its statements match. */
		public long count(Predicate<String> statement) {
			return this.statements.stream().filter(statement).count();
		}

	}

	private final List<Transaction> transactions = new CopyOnWriteArrayList<>();

	private final DataSource dataSource;

	public TransactionRecorder(DataSource target) {
		this.dataSource = JdbcProxies.dataSource(target, Recording::new);
	}

	/** The recording data source. */
	public DataSource dataSource() {
		return this.dataSource;
	}

	/** Every transaction that ended, in order. */
	public List<Transaction> all() {
		return List.copyOf(this.transactions);
	}

	/** The transactions that ended on threads whose name starts with the prefix. */
	public List<Transaction> onThreads(String namePrefix) {
		return this.transactions.stream().filter((t) -> t.thread().getName().startsWith(namePrefix)).toList();
	}

	/** The transactions that ended on the thread. */
	public List<Transaction> of(Thread thread) {
		return this.transactions.stream().filter((t) -> t.thread() == thread).toList();
	}

	/** The transactions that ended on the current thread while the action ran. */
	public List<Transaction> during(Runnable action) {
		int before = of(Thread.currentThread()).size();
		action.run();
		List<Transaction> all = of(Thread.currentThread());
		return all.subList(before, all.size());
	}

	/** One connection: the statements of its transaction in progress. */
	private final class Recording implements InvocationHandler {

		private final Connection target;

		/**
		 * The statements of the explicit transaction in progress; {@code null} in
		 * autocommit.
		 */
		private List<String> open;

		Recording(Connection target) throws SQLException {
			this.target = target;
			this.open = target.getAutoCommit() ? null : new ArrayList<>();
		}

		@Override
		public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
			if (JdbcProxies.isIdentity(method)) {
				return JdbcProxies.identity(proxy, method, args);
			}
			switch (method.getName()) {
				case "prepareStatement", "prepareCall", "createStatement" -> {
					Object statement = JdbcProxies.invoke(this.target, method, args);
					String sql = JdbcProxies.sql(args, "<statement>");
					// one statement per execution: a JDBC batch of n counts n times
					List<String> batch = new ArrayList<>();
					return Proxy.newProxyInstance(getClass().getClassLoader(),
							new Class<?>[] { method.getReturnType() }, (p, m, a) -> {
								if (m.getName().equals("addBatch") && this.open == null) {
									// in autocommit, the batch is one transaction when it
									// is executed
									batch.add(JdbcProxies.sql(a, sql));
								}
								else if (m.getName().equals("executeBatch")
										|| m.getName().equals("executeLargeBatch")) {
									return executeBatch(statement, m, a, batch);
								}
								else if (m.getName().equals("addBatch") || m.getName().startsWith("execute")) {
									// a plain statement is recorded with the SQL it
									// executes
									statement(JdbcProxies.sql(a, sql));
								}
								return JdbcProxies.invoke(statement, m, a);
							});
				}
				case "setAutoCommit" -> {
					JdbcProxies.invoke(this.target, method, args);
					boolean on = (Boolean) args[0];
					if (on && this.open != null) {
						// switching autocommit on commits the transaction in progress
						end(End.COMMITTED);
						this.open = null;
					}
					else if (!on && this.open == null) {
						this.open = new ArrayList<>();
					}
					return null;
				}
				case "commit" -> {
					try {
						JdbcProxies.invoke(this.target, method, args);
					}
					catch (Throwable ex) {
						end(End.COMMIT_FAILED);
						throw ex;
					}
					end(End.COMMITTED);
					return null;
				}
				case "rollback" -> {
					Object result = JdbcProxies.invoke(this.target, method, args);
					if (args == null || args.length == 0) {
						end(End.ROLLED_BACK);
					}
					return result;
				}
				default -> {
					return JdbcProxies.invoke(this.target, method, args);
				}
			}
		}

		private Object executeBatch(Object statement, Method method, Object[] args, List<String> batch)
				throws Throwable {
			List<String> statements = List.copyOf(batch);
			batch.clear();
			try {
				Object counts = JdbcProxies.invoke(statement, method, args);
				if (!statements.isEmpty()) {
					record(statements, End.AUTOCOMMIT_BATCH);
				}
				return counts;
			}
			catch (Throwable ex) {
				if (!statements.isEmpty()) {
					record(statements, End.AUTOCOMMIT_BATCH_FAILED);
				}
				throw ex;
			}
		}

		private void statement(String sql) {
			if (this.open != null) {
				this.open.add(sql);
			}
			else {
				record(List.of(sql), End.AUTOCOMMIT);
			}
		}

		private void end(End end) {
			if (this.open != null && !this.open.isEmpty()) {
				record(List.copyOf(this.open), end);
			}
			if (this.open != null) {
				this.open = new ArrayList<>();
			}
		}

		private void record(List<String> statements, End end) {
			TransactionRecorder.this.transactions.add(new Transaction(Thread.currentThread(), statements, end));
		}

	}

}
