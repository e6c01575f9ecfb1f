package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.store.RunOwnership;

/**
 * Which cached runs a node gives up, and when: idle runs beyond the cache size or idle
 * timeout (their ownership released so that any node can take them at their next
 * wake-up), every run when the node was declared dead, and every run at shutdown.
 */
final class RunEviction {

	/** The most runs one release statement gives up. */
	static final int RELEASED_AT_ONCE = 500;

	private final Map<UUID, RunSlot> slots;

	private final RunOwnership ownership;

	private final UUID node;

	private final EngineSettings config;

	private final Clock clock;

	private final Consumer<RunSlot> drop;

	RunEviction(Map<UUID, RunSlot> slots, RunOwnership ownership, UUID node, EngineSettings config, Clock clock,
			Consumer<RunSlot> drop) {
		this.slots = slots;
		this.ownership = ownership;
		this.node = node;
		this.config = config;
		this.clock = clock;
		this.drop = drop;
	}

	/** Evicts everything (the node was declared dead). */
	void evictAll() {
		List.copyOf(this.slots.values()).forEach(this.drop);
	}

	/**
	 * Evicts idle cached runs beyond the cache size or idle timeout, giving up their
	 * ownership in statements of up to {@link #RELEASED_AT_ONCE} runs (a node with
	 * thousands of parked runs beyond its cache gives them up in a few commits, not one
	 * each).
	 */
	void evictIdle() {
		List<RunSlot> held = new ArrayList<>();
		try {
			for (RunSlot slot : toEvict(this.slots.values(), this.config.maxCachedRuns(),
					this.config.cacheIdleTimeout(), this.clock.instant())) {
				// under the task lock, and only if still idle: a task that began since
				// the choice
				// would otherwise use the runner while it is destroyed here
				if (!slot.tryLockTask()) {
					continue;
				}
				if (!slot.isIdle()) {
					slot.unlockTask();
					continue;
				}
				held.add(slot);
				if (held.size() == RELEASED_AT_ONCE) {
					releaseAndDrop(held);
				}
			}
			releaseAndDrop(held);
		}
		finally {
			held.forEach(RunSlot::unlockTask);
		}
	}

	/** Releases every owned run at shutdown. */
	void releaseAll() {
		List<RunSlot> all = List.copyOf(this.slots.values());
		all.forEach(this.drop);
		for (int from = 0; from < all.size(); from += RELEASED_AT_ONCE) {
			release(all.subList(from, Math.min(all.size(), from + RELEASED_AT_ONCE)));
		}
	}

	/** Releases and drops the held slots, then unlocks them and empties the list. */
	private void releaseAndDrop(List<RunSlot> held) {
		if (held.isEmpty()) {
			return;
		}
		try {
			release(held);
			held.forEach(this.drop);
		}
		finally {
			held.forEach(RunSlot::unlockTask);
			held.clear();
		}
	}

	private void release(List<RunSlot> slots) {
		this.ownership.release(this.node, slots.stream().map(RunSlot::runId).toArray(UUID[]::new),
				slots.stream().map(RunSlot::epoch).toArray(Long[]::new));
	}

	/**
	 * Idle cached runs to evict: beyond the cache size (least recently used first) or
	 * idle past the timeout. Runs with a task or an activity in flight stay.
	 */
	static List<RunSlot> toEvict(Collection<RunSlot> slots, int maxCached, Duration idleTimeout, Instant now) {
		List<RunSlot> idle = slots.stream()
			.filter(RunSlot::isIdle)
			.sorted(Comparator.comparing((RunSlot s) -> (s.lastUsed() != null) ? s.lastUsed() : Instant.MIN))
			.toList();
		int excess = slots.size() - maxCached;
		List<RunSlot> evict = new ArrayList<>();
		for (RunSlot slot : idle) {
			boolean tooOld = slot.lastUsed() != null && slot.lastUsed().plus(idleTimeout).isBefore(now);
			if (excess > 0 || tooOld) {
				evict.add(slot);
				excess--;
			}
		}
		return evict;
	}

}
