package dev.durable.workflow.autoconfigure;

import java.time.Duration;

/**
 * How this node shows other nodes that it is alive.
 * <p>
 * Bound to {@code durable.workflow.node.*}, as a part of
 * {@link DurableWorkflowProperties}.
 */
public class DurableWorkflowNodeProperties {

	/**
	 * How often the node records that it is alive.
	 */
	private Duration heartbeatInterval = Duration.ofSeconds(5);

	/**
	 * Silence after which other nodes count this node as dead and take over its runs.
	 * Must be longer than the heartbeat interval. A node whose heartbeats get no answer
	 * stops working by itself one heartbeat interval earlier (its lease): it claims,
	 * starts and commits nothing and answers its callers 503 until a heartbeat is
	 * answered again.
	 */
	private Duration deadAfter = Duration.ofSeconds(30);

	/**
	 * How long one of the engine's statements waits for the database's answer before it
	 * fails as if the database were unreachable (the network timeout of the connections
	 * the engine takes from the DataSource, restored when it gives them back, so the
	 * application's own statements keep theirs). Bounds how long a silent network, such
	 * as a partition that drops packets, holds a caller. Default: 10s, or dead-after
	 * minus the heartbeat interval when that is shorter.
	 */
	private Duration statementTimeout;

	/**
	 * How long the database lets one of the engine's sessions stay idle inside a
	 * transaction before it ends it (PostgreSQL's idle_in_transaction_session_timeout,
	 * set with TCP keepalives and a TCP user timeout that follow the statement timeout),
	 * so that a node cut off by a network partition does not keep its transactions' locks
	 * while healthy nodes wait on them. Set once on each physical connection the engine
	 * takes from the DataSource: they are session settings, so the application's own
	 * transactions on those pooled connections (a transactional activity's included) are
	 * ended too when they stay idle that long. 0 turns them all off. Default: dead-after
	 * minus the heartbeat interval, at least 1s.
	 */
	private Duration idleInTransactionTimeout;

	public Duration getIdleInTransactionTimeout() {
		return this.idleInTransactionTimeout;
	}

	public void setIdleInTransactionTimeout(Duration idleInTransactionTimeout) {
		this.idleInTransactionTimeout = idleInTransactionTimeout;
	}

	public Duration getHeartbeatInterval() {
		return this.heartbeatInterval;
	}

	public void setHeartbeatInterval(Duration heartbeatInterval) {
		this.heartbeatInterval = heartbeatInterval;
	}

	public Duration getStatementTimeout() {
		return this.statementTimeout;
	}

	public void setStatementTimeout(Duration statementTimeout) {
		this.statementTimeout = statementTimeout;
	}

	public Duration getDeadAfter() {
		return this.deadAfter;
	}

	public void setDeadAfter(Duration deadAfter) {
		this.deadAfter = deadAfter;
	}

}
