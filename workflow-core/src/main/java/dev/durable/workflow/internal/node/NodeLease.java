package dev.durable.workflow.internal.node;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.store.EngineDataSource;

/**
 * How long this node may go on working since its last heartbeat that the database
 * answered: the lease. Other nodes take its runs over once the database has seen no
 * heartbeat for {@code deadAfter}; the lease ends one heartbeat interval earlier (see
 * {@link EngineSettings#lease()}), so a node that cannot renew it stops by itself before
 * then. Its start is when the renewing heartbeat was sent (the database stamped it later,
 * never earlier), and its age is measured on this node's monotonic clock, which neither
 * the wall clock nor the engine clock moves.
 * <p>
 * While the lease has run out the node is fenced: it claims nothing, starts no workflow
 * task or activity attempt and commits nothing. When it is fenced because the database
 * does not answer (its last heartbeat failed or still waits for the answer) it also takes
 * no database connection for the engine, so callers of its client are answered at once
 * (see {@link EngineDataSource}); a node whose heartbeat is merely late (a stalled
 * thread, a pause) still serves its callers, each statement bounded by the statement
 * timeout. A heartbeat the database answers lifts the fence. A node that is not a worker
 * has no lease and is never fenced.
 */
public final class NodeLease implements EngineDataSource.Gate {

	private final Duration lease;

	private final long leaseNanos;

	/**
	 * When the last renewing heartbeat was sent (System.nanoTime); meaningful once
	 * {@link #held}.
	 */
	private volatile long renewedAt;

	/** Whether the last heartbeat sent got no answer yet (failed, or still waiting). */
	private volatile boolean unanswered;

	/**
	 * Whether the node heartbeats at all (a worker that started): before, nothing is
	 * fenced.
	 */
	private volatile boolean held;

	public NodeLease(EngineSettings config) {
		this.lease = config.lease();
		this.leaseNanos = this.lease.toNanos();
	}

	/** A heartbeat is sent now. */
	void sending() {
		this.unanswered = true;
	}

	/**
	 * The database answered the heartbeat sent last (it may have declared the node dead).
	 */
	void answered() {
		this.unanswered = false;
	}

	/**
	 * A heartbeat sent at {@code sentAt} (System.nanoTime) was recorded by the database.
	 */
	void renewed(long sentAt) {
		this.unanswered = false;
		if (!this.held || sentAt - this.renewedAt > 0) {
			this.renewedAt = sentAt;
		}
		this.held = true;
	}

	/** The node stopped heartbeating (shutdown): nothing is fenced from then on. */
	void released() {
		this.held = false;
	}

	/**
	 * Nanoseconds left until the lease runs out (zero or less: fenced); a day while none
	 * is held.
	 */
	long remainingNanos() {
		if (!this.held) {
			return Duration.ofDays(1).toNanos();
		}
		return this.leaseNanos - (System.nanoTime() - this.renewedAt);
	}

	/**
	 * Whether the lease ran out: the node must do nothing that another node may be doing
	 * soon.
	 */
	public boolean isFenced() {
		return remainingNanos() <= 0;
	}

	/** The lease's length. */
	public Duration length() {
		return this.lease;
	}

	/** Why a fenced node does nothing. */
	public String reason() {
		return "This node could not renew its heartbeat for " + this.lease + ": it does no work until the database"
				+ " answers its heartbeat again";
	}

	/**
	 * Closed only when fenced because the database does not answer (see the class
	 * comment).
	 */
	@Override
	public @Nullable String closedReason() {
		return (this.unanswered && isFenced()) ? reason() : null;
	}

}
