package dev.durable.chaos;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a chaos run saw: violations (any one fails the run), and the figures printed with
 * it. Thread-safe: the traffic, the faults and the checks write to it at once.
 */
final class ChaosReport {

	private final List<String> violations = new CopyOnWriteArrayList<>();

	private final List<String> lines = new CopyOnWriteArrayList<>();

	private final Map<String, AtomicInteger> counters = new ConcurrentHashMap<>();

	void violation(String what) {
		this.violations.add(what);
	}

	/** A figure or an event for the printed report. */
	void line(String what) {
		this.lines.add(what);
	}

	void count(String counter) {
		this.counters.computeIfAbsent(counter, (k) -> new AtomicInteger()).incrementAndGet();
	}

	int counter(String counter) {
		AtomicInteger value = this.counters.get(counter);
		return (value != null) ? value.get() : 0;
	}

	List<String> violations() {
		return List.copyOf(this.violations);
	}

	boolean passed() {
		return this.violations.isEmpty();
	}

	String render() {
		StringBuilder out = new StringBuilder();
		out.append("chaos report ").append(Instant.now()).append('\n');
		this.lines.forEach((l) -> out.append("  ").append(l).append('\n'));
		Map<String, Integer> sorted = new TreeMap<>();
		this.counters.forEach((k, v) -> sorted.put(k, v.get()));
		sorted.forEach((k, v) -> out.append("  ").append(k).append(": ").append(v).append('\n'));
		List<String> shown = new ArrayList<>(this.violations);
		out.append(shown.isEmpty() ? "PASSED: no violation\n" : "FAILED: " + shown.size() + " violation(s)\n");
		shown.stream().limit(50).forEach((v) -> out.append("  VIOLATION ").append(v).append('\n'));
		if (shown.size() > 50) {
			out.append("  ... and ").append(shown.size() - 50).append(" more\n");
		}
		return out.toString();
	}

}
