package dev.durable.workflow.internal.wakeup;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** What a batch of pending wake-ups sends. */
public final class WakeupBatch {

	/**
	 * Past this many runs of one node in a batch, the node gets one wake-up for all (it
	 * polls).
	 */
	static final int RUNS_PER_NODE = 16;

	private WakeupBatch() {
	}

	/**
	 * The wake-ups to send: a node named by many run wake-ups gets one wake-up instead
	 * (it polls then), so that a burst of messages to one node stays a few notifications.
	 */
	public static Set<Wakeup> coalesce(Set<Wakeup> pending) {
		Map<UUID, Integer> runsPerNode = new HashMap<>();
		for (Wakeup wakeup : pending) {
			if (wakeup instanceof Wakeup.Run run) {
				runsPerNode.merge(run.node(), 1, Integer::sum);
			}
		}
		Set<Wakeup> wakeups = new LinkedHashSet<>();
		for (Wakeup wakeup : pending) {
			if (wakeup instanceof Wakeup.Run run && runsPerNode.get(run.node()) > RUNS_PER_NODE) {
				wakeups.add(new Wakeup.Node(run.node()));
			}
			else {
				wakeups.add(wakeup);
			}
		}
		return wakeups;
	}

}
