package dev.durable.workflow.autoconfigure;

import java.time.Duration;

/**
 * How this node shows other nodes that it is alive.
 * <p>
 * Bound to {@code durable.workflow.node.*}, as a part of {@link DurableWorkflowProperties}.
 */
public class DurableWorkflowNodeProperties {

	/**
	 * How often the node records that it is alive.
	 */
	private Duration heartbeatInterval = Duration.ofSeconds(5);

	/**
	 * Silence after which other nodes count this node as dead and take over its runs. Must be
	 * longer than the heartbeat interval.
	 */
	private Duration deadAfter = Duration.ofSeconds(30);

	public Duration getHeartbeatInterval() {
		return this.heartbeatInterval;
	}

	public void setHeartbeatInterval(Duration heartbeatInterval) {
		this.heartbeatInterval = heartbeatInterval;
	}

	public Duration getDeadAfter() {
		return this.deadAfter;
	}

	public void setDeadAfter(Duration deadAfter) {
		this.deadAfter = deadAfter;
	}

}
