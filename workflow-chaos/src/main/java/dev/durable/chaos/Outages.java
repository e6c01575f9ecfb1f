package dev.durable.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;

/**
 * When the harness itself made the database unreachable (a restart for every node, cut
 * connections for one): a 5xx or an ERROR line inside such a window, plus a grace period
 * for the pools to notice, is the expected answer; outside, it is a defect.
 */
final class Outages {

	/** A window; {@code node} null for all nodes, {@code to} null while it lasts. */
	static final class Window {

		final Instant from;

		final @Nullable String node;

		final String what;

		volatile @Nullable Instant to;

		/**
		 * For a network partition of {@code node} from the database: when its rules held.
		 */
		volatile @Nullable Instant partitioned;

		Window(Instant from, @Nullable String node, String what) {
			this.from = from;
			this.node = node;
			this.what = what;
		}

	}

	private final List<Window> windows = new CopyOnWriteArrayList<>();

	private final Duration grace;

	Outages(Duration grace) {
		this.grace = grace;
	}

	Window begin(@Nullable String node, String what) {
		Window window = new Window(Instant.now(), node, what);
		this.windows.add(window);
		return window;
	}

	void end(Window window) {
		window.to = Instant.now();
	}

	/**
	 * Marks {@code window} as a network partition of its node from the database, in force
	 * from {@code at}.
	 */
	void partitioned(Window window, Instant at) {
		window.partitioned = at;
	}

	/**
	 * Whether {@code node} was partitioned from the database at that time, past
	 * {@code dead-after} (its lease ran out): it must answer at once (503), not hang.
	 */
	boolean partitionedPastLease(Instant at, String node) {
		for (Window window : this.windows) {
			Instant from = window.partitioned;
			Instant to = window.to;
			if (from != null && node.equals(window.node) && !at.isBefore(from.plus(ChaosOptions.DEAD_AFTER))
					&& (to == null || at.isBefore(to))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether {@code node} (null: any) was inside a window at that time, grace included.
	 */
	boolean covers(Instant at, @Nullable String node) {
		for (Window window : this.windows) {
			Instant to = window.to;
			boolean inTime = !at.isBefore(window.from) && (to == null || !at.isAfter(to.plus(this.grace)));
			boolean onNode = window.node == null || node == null || window.node.equals(node);
			if (inTime && onNode) {
				return true;
			}
		}
		return false;
	}

	List<Window> windows() {
		return List.copyOf(this.windows);
	}

}
