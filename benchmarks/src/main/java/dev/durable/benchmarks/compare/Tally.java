package dev.durable.benchmarks.compare;

import java.util.ArrayList;
import java.util.List;

import dev.durable.benchmarks.LatencyStats;

/**
 * The rounds of one engine in one scenario, pooled: all workflows over all measured time.
 */
final class Tally {

	private int count;

	private long nanos;

	private final List<long[]> latencies = new ArrayList<>();

	private long transactions;

	private long walFlushes;

	private CpuCounters.Reading cpu = new CpuCounters.Reading(0, 0);

	private final List<String> notes = new ArrayList<>();

	void add(ClientLoops.Loop loop, PgCounters.Snapshot delta, String note) {
		this.count += loop.count();
		this.nanos += loop.nanos();
		this.latencies.add(loop.latencies());
		this.transactions += delta.xactCommit();
		this.walFlushes += delta.walSync();
		this.cpu = new CpuCounters.Reading(this.cpu.jvmNanos() + delta.cpu().jvmNanos(),
				this.cpu.postgresNanos() + delta.cpu().postgresNanos());
		if (note != null) {
			this.notes.add(note);
		}
	}

	int count() {
		return this.count;
	}

	double perSecond() {
		return this.count / (this.nanos / 1e9);
	}

	LatencyStats stats() {
		return LatencyStats.of(this.latencies.stream().flatMapToLong(java.util.Arrays::stream).toArray());
	}

	double transactionsPerWorkflow() {
		return this.transactions / (double) this.count;
	}

	double walFlushesPerWorkflow() {
		return this.walFlushes / (double) this.count;
	}

	CpuCounters.Reading cpu() {
		return this.cpu;
	}

	/** JVM and server CPU nanoseconds per workflow. */
	double cpuPerWorkflow() {
		return (this.cpu.jvmNanos() + this.cpu.postgresNanos()) / (double) this.count;
	}

	String notes() {
		return String.join("; ", this.notes);
	}

}
