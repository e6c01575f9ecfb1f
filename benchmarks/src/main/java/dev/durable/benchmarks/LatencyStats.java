package dev.durable.benchmarks;

import java.util.Arrays;

/**
 * Percentiles of a set of latencies (nearest rank), in nanoseconds.
 *
 * @param count how many latencies
 * @param p50 the median
 * @param p90 the 90th percentile
 * @param p99 the 99th percentile
 * @param max the largest
 * @param mean the arithmetic mean
 */
public record LatencyStats(int count, long p50, long p90, long p99, long max, long mean) {

	public static LatencyStats of(long[] latencies) {
		if (latencies.length == 0) {
			return new LatencyStats(0, 0, 0, 0, 0, 0);
		}
		long[] sorted = latencies.clone();
		Arrays.sort(sorted);
		long sum = 0;
		for (long latency : sorted) {
			sum += latency;
		}
		return new LatencyStats(sorted.length, percentile(sorted, 50), percentile(sorted, 90), percentile(sorted, 99),
				sorted[sorted.length - 1], sum / sorted.length);
	}

	private static long percentile(long[] sorted, double p) {
		int rank = (int) Math.ceil(p / 100.0 * sorted.length);
		return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
	}

	/** How many latencies are at least the threshold. */
	static int countAtLeast(long[] latencies, long thresholdNanos) {
		int count = 0;
		for (long latency : latencies) {
			if (latency >= thresholdNanos) {
				count++;
			}
		}
		return count;
	}

	public static String millis(long nanos) {
		return String.format("%.2f", nanos / 1_000_000.0);
	}

}
