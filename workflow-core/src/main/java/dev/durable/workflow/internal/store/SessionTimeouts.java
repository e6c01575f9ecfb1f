package dev.durable.workflow.internal.store;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * How soon the database ends a session of the engine whose node went silent, so that a
 * node cut off by a network partition (which drops packets: the server is never told)
 * does not keep its open transactions' locks until TCP gives up, many minutes, while the
 * statements of healthy nodes wait on them.
 * <ul>
 * <li>{@code tcp_keepalives_idle/interval/count}: a session whose peer sent nothing for a
 * third of the statement timeout is probed twice, a second apart, and ended when the
 * probes go unanswered: a partitioned node's transaction ends, and its locks are
 * released, before a healthy node's statement waiting on them times out. A live peer's
 * kernel answers the probes, so these end only sessions whose node is gone;
 * <li>{@code tcp_user_timeout}: what the server sent a silent node and has not had
 * acknowledged ends the session after the statement timeout;
 * <li>{@code idle_in_transaction_session_timeout}: the backstop for a node whose kernel
 * still answers but whose process stopped (paused, or stuck) inside a transaction.
 * </ul>
 *
 * @param idleInTransaction how long one of the engine's sessions may stay idle in a
 * transaction
 * @param statementTimeout the engine's statement timeout, which the TCP timeouts follow
 */
public record SessionTimeouts(Duration idleInTransaction, Duration statementTimeout) {

	/**
	 * The timeouts of a node: none when {@code idleInTransaction} is zero or negative
	 * (the engine sets nothing on its sessions).
	 */
	public static @Nullable SessionTimeouts of(Duration idleInTransaction, Duration statementTimeout) {
		if (idleInTransaction.isZero() || idleInTransaction.isNegative()) {
			return null;
		}
		return new SessionTimeouts(idleInTransaction, statementTimeout);
	}

	/** The statements that set them, in one round trip. */
	String sql() {
		long idleMillis = Math.max(1, this.idleInTransaction.toMillis());
		// keepalives count in whole seconds: idle for a third of the statement timeout,
		// then two probes
		// a second apart, so a dead peer's session ends before a statement waiting on it
		// times out
		long keepaliveIdle = Math.max(1, this.statementTimeout.toSeconds() / 3);
		return "SET idle_in_transaction_session_timeout = " + idleMillis + "; SET tcp_keepalives_idle = "
				+ keepaliveIdle + "; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 2;"
				+ " SET tcp_user_timeout = " + Math.max(1, this.statementTimeout.toMillis());
	}

}
