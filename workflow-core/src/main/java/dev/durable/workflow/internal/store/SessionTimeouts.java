package dev.durable.workflow.internal.store;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * How soon the database ends a session of the engine whose node went silent, so that a node cut
 * off by a network partition (which drops packets: the server is never told) does not keep its
 * open transactions' locks until TCP gives up, many minutes, while the statements of healthy nodes
 * wait on them.
 * <ul>
 * <li>{@code idle_in_transaction_session_timeout}: a transaction whose node sends nothing for
 * {@code idleInTransaction} is ended, and its locks released; the engine's own transactions send
 * their statements back to back, so only a node that went silent (or stopped) comes near it;
 * <li>{@code tcp_keepalives_idle/interval/count}: a session idle outside a transaction is probed
 * after about the same time and closed when the probes go unanswered;
 * <li>{@code tcp_user_timeout}: what the server sent a silent node and has not had acknowledged
 * ends the session after {@code userTimeout} (the node's lease: by then the node has stopped).
 * </ul>
 *
 * @param idleInTransaction how long one of the engine's sessions may stay idle in a transaction
 * @param userTimeout how long the server waits for the node to acknowledge what it sent
 */
public record SessionTimeouts(Duration idleInTransaction, Duration userTimeout) {

	/**
	 * The timeouts of a node: none when {@code idleInTransaction} is zero or negative (the engine
	 * sets nothing on its sessions).
	 */
	public static @Nullable SessionTimeouts of(Duration idleInTransaction, Duration lease) {
		if (idleInTransaction.isZero() || idleInTransaction.isNegative()) {
			return null;
		}
		return new SessionTimeouts(idleInTransaction,
				(lease.compareTo(idleInTransaction) > 0) ? lease : idleInTransaction);
	}

	/** The statements that set them, in one round trip. */
	String sql() {
		long idleMillis = Math.max(1, this.idleInTransaction.toMillis());
		// keepalives count in whole seconds: probed after about the idle timeout, three probes a second apart
		long keepaliveIdle = Math.max(1, (idleMillis + 999) / 1000);
		return "SET idle_in_transaction_session_timeout = " + idleMillis + "; SET tcp_keepalives_idle = "
				+ keepaliveIdle + "; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 3;"
				+ " SET tcp_user_timeout = " + Math.max(1, this.userTimeout.toMillis());
	}

}
