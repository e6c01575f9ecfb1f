package dev.durable.benchmarks;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.durable.workflow.client.WorkflowHandle;

/**
 * What the signal-latency variants found: a latency row per variant, the table of them,
 * and the problems (lost, duplicated or slow signals).
 */
final class SignalLatencyReport {

	/**
	 * A latency at or above this suggests the 1 s fallback poll, not a wake-up, delivered
	 * the signal.
	 */
	private static final long POLL_SUSPECT_NANOS = TimeUnit.MILLISECONDS.toNanos(900);

	private final PrintStream out;

	private final List<Result> results = new ArrayList<>();

	private final List<String> problems = new ArrayList<>();

	SignalLatencyReport(PrintStream out) {
		this.out = out;
	}

	/** Adds a problem, listed after the table. */
	void problem(String problem) {
		this.problems.add(problem);
	}

	List<String> problems() {
		return this.problems;
	}

	/** Stops the runs and checks each counted exactly the pings it was sent. */
	void finish(String name, List<WorkflowHandle<Long>> handles, int sent) {
		long received = 0;
		for (WorkflowHandle<Long> handle : handles) {
			handle.signal(SignalSinkWorkflow::stop);
		}
		for (WorkflowHandle<Long> handle : handles) {
			received += handle.result(Duration.ofSeconds(30));
		}
		if (received != sent) {
			this.problems.add(name + ": the runs counted " + received + " pings but " + sent + " were sent");
		}
		if (HandlerProbe.duplicates() > 0) {
			this.problems.add(name + ": " + HandlerProbe.duplicates() + " handler(s) ran twice for one signal"
					+ " outside replay");
		}
		if (HandlerProbe.replays() > 0) {
			this.out.printf("  note: %s: %d handler call(s) during replay (a run was evicted and rebuilt)%n", name,
					HandlerProbe.replays());
		}
	}

	/**
	 * Prints the median of the first and the second half of the measured signals (in send
	 * order): similar values mean the senders did not build a growing backlog.
	 */
	void reportDrift(String name, long[] latencies) {
		if (latencies.length < 2) {
			return;
		}
		int half = latencies.length / 2;
		LatencyStats first = LatencyStats.of(Arrays.copyOfRange(latencies, 0, half));
		LatencyStats second = LatencyStats.of(Arrays.copyOfRange(latencies, half, latencies.length));
		this.out.printf("  %s: p50 of the first / second half of the measured signals: %s / %s ms%n", name,
				LatencyStats.millis(first.p50()), LatencyStats.millis(second.p50()));
	}

	void record(String name, long[] latencies, long[] sends, double throughput) {
		int slow = LatencyStats.countAtLeast(latencies, POLL_SUSPECT_NANOS);
		if (slow > 0) {
			this.problems.add(name + ": " + slow + " of " + latencies.length
					+ " signals took 900 ms or more (the 1 s fallback poll, not a wake-up, delivered them?)");
		}
		this.results.add(new Result(name, LatencyStats.of(latencies), LatencyStats.of(sends), throughput));
	}

	void printTable() {
		this.out
			.println("| variant | signals | p50 ms | p90 ms | p99 ms | max ms | throughput signals/s | send p50 ms |");
		this.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
		for (Result result : this.results) {
			LatencyStats l = result.latency();
			this.out.printf("| %s | %d | %s | %s | %s | %s | %.0f | %s |%n", result.variant(), l.count(),
					LatencyStats.millis(l.p50()), LatencyStats.millis(l.p90()), LatencyStats.millis(l.p99()),
					LatencyStats.millis(l.max()), result.throughput(), LatencyStats.millis(result.send().p50()));
		}
	}

	private record Result(String variant, LatencyStats latency, LatencyStats send, double throughput) {
	}

}
