package dev.durable.workflow.internal.taskqueue;

import java.time.Duration;
import java.util.Set;

/**
 * What a node's activity task worker claims, and how often and how much.
 *
 * @param namespace whose activities it claims
 * @param queues the task queues this node claims from (empty: it only sweeps)
 * @param maxConcurrent how many attempts run at once at most
 * @param pollInterval how often it looks for work it was not told of
 * @param deadAfter after how long without a heartbeat a claiming node counts as dead
 */
public record TaskQueueSettings(String namespace, Set<String> queues, int maxConcurrent, Duration pollInterval,
		Duration deadAfter) {
}
