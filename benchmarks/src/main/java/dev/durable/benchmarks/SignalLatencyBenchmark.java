package dev.durable.benchmarks;

import java.io.PrintStream;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * Signal-to-handler latency: from just before {@code WorkflowHandle.signal(...)} is
 * called to the moment the workflow's {@code @SignalMethod} handler runs, in three
 * variants.
 * <ol>
 * <li>{@code one-node}: one node sends to a run it owns (the in-JVM direct hand-off),
 * sequentially: send, wait until the handler ran, next.</li>
 * <li>{@code two-nodes}: two nodes on one database; the run is owned by node A, the
 * signals are sent from node B (the LISTEN/NOTIFY path), sequentially.</li>
 * <li>{@code concurrent}: one node, many runs, several threads sending as fast as
 * {@code signal(...)} returns (throughput, and latency under that load).</li>
 * </ol>
 * The engines keep their default settings; in particular the poll interval stays at its
 * default (1 s), so a latency near a second means the fallback poll did the work, not a
 * wake-up.
 */
final class SignalLatencyBenchmark {

	/** How long one sequential signal may take before it is reported as lost. */
	private static final long LOST_AFTER_NANOS = TimeUnit.SECONDS.toNanos(10);

	private final Options options;

	private final PrintStream out;

	private final SignalLatencyReport report;

	private final SignalNodes nodes;

	SignalLatencyBenchmark(Options options, PrintStream out) {
		this.options = options;
		this.out = out;
		this.report = new SignalLatencyReport(out);
		this.nodes = new SignalNodes(this.report);
	}

	/**
	 * Runs the selected variants and prints the report; returns false when the engine
	 * misbehaved.
	 */
	boolean run() {
		int cores = Runtime.getRuntime().availableProcessors();
		this.out.printf("signal-latency: %s%n", ZonedDateTime.now().format(DateTimeFormatter.RFC_1123_DATE_TIME));
		this.out.printf("machine: %d cores (%s), %s %s, Java %s (%s)%n", cores, Machine.cpuModel(),
				System.getProperty("os.name"), System.getProperty("os.arch"), System.getProperty("java.version"),
				System.getProperty("java.vm.name"));
		this.out.printf("engine: default settings (poll interval 1 s), pool %d connections per node%n",
				this.options.poolSize());
		this.out.printf("load average at start: %s%n", Machine.loadAverage());
		long begin = System.nanoTime();
		try (EmbeddedDatabase database = EmbeddedDatabase.start(this.options.synchronousCommit(),
				this.options.fsync())) {
			this.out.printf("database: embedded %s, same machine%n", database.describe());
			for (String variant : this.options.variants()) {
				long start = System.nanoTime();
				switch (variant) {
					case "one-node" -> oneNode(database);
					case "two-nodes" -> twoNodes(database);
					case "concurrent" -> concurrent(database);
					default -> throw new IllegalArgumentException(
							"Unknown variant '" + variant + "' (one-node, two-nodes, concurrent)");
				}
				this.out.printf("  %s done in %.1f s%n", variant, (System.nanoTime() - start) / 1e9);
			}
		}
		this.out.printf("load average at end: %s (other processes on the machine skew the numbers)%n",
				Machine.loadAverage());
		this.out.println();
		this.report.printTable();
		this.out.printf(
				"%nlatency = from just before WorkflowHandle.signal(...) to the @SignalMethod handler running;"
						+ " send = how long signal(...) took to return; total time %.1f s%n",
				(System.nanoTime() - begin) / 1e9);
		if (this.report.problems().isEmpty()) {
			this.out.println("no signal lost, none handled twice, none slower than 900 ms");
			return true;
		}
		this.out.println();
		this.out.println("PROBLEMS:");
		this.report.problems().forEach((problem) -> this.out.println("  - " + problem));
		return false;
	}

	private void oneNode(EmbeddedDatabase database) {
		String schema = "bench_one_node";
		try (HikariDataSource pool = database.pool("node-a", this.options.poolSize())) {
			WorkflowEngine node = this.nodes.engine(pool, schema);
			try {
				sequential("one-node (direct hand-off)", node, node);
			}
			finally {
				node.shutdown();
			}
		}
	}

	private void twoNodes(EmbeddedDatabase database) {
		String schema = "bench_two_nodes";
		try (HikariDataSource poolA = database.pool("node-a", this.options.poolSize());
				HikariDataSource poolB = database.pool("node-b", this.options.poolSize())) {
			WorkflowEngine nodeA = this.nodes.engine(poolA, schema);
			WorkflowEngine nodeB = this.nodes.engine(poolB, schema);
			try {
				sequential("two nodes, sent from non-owner (NOTIFY)", nodeA, nodeB);
			}
			finally {
				nodeB.shutdown();
				nodeA.shutdown();
			}
		}
	}

	/**
	 * Starts one run on {@code owner}, sends the signals from {@code sender} one at a
	 * time, and waits for each handler before the next send.
	 */
	private void sequential(String name, WorkflowEngine owner, WorkflowEngine sender) {
		int warmup = this.options.warmup();
		int measured = this.options.signals();
		int total = warmup + measured;
		HandlerProbe.reset(total);
		String workflowId = "sink-" + UUID.randomUUID();
		WorkflowHandle<Long> started = owner.client().start(SignalSinkWorkflow::run, StartOptions.withId(workflowId));
		this.nodes.checkOwner(name, owner, started.runId());
		WorkflowHandle<Long> handle = sender.client().handle(workflowId, Long.class);
		long[] latencies = new long[measured];
		long[] sends = new long[measured];
		long deadline = System.nanoTime() + this.options.variantTimeout().toNanos();
		long measuredStart = 0;
		long measuredEnd = 0;
		int sent = 0;
		int done = 0;
		for (int seq = 0; seq < total; seq++) {
			if (System.nanoTime() > deadline) {
				this.report.problem(name + ": stopped after " + sent + " of " + total + " signals, past the "
						+ this.options.variantTimeout().toSeconds() + " s bound");
				break;
			}
			long before = System.nanoTime();
			if (seq == warmup) {
				measuredStart = before;
			}
			handle.signal(SignalSinkWorkflow::ping, new SignalSinkWorkflow.Ping(seq));
			long returned = System.nanoTime();
			sent++;
			long handledAt = HandlerProbe.awaitHandled(seq, LOST_AFTER_NANOS);
			if (handledAt == 0) {
				this.report.problem(name + ": the handler of signal " + seq + " did not run within "
						+ TimeUnit.NANOSECONDS.toSeconds(LOST_AFTER_NANOS) + " s of the send");
				break;
			}
			if (seq >= warmup) {
				latencies[done] = handledAt - before;
				sends[done] = returned - before;
				done++;
				measuredEnd = handledAt;
			}
		}
		double throughput = (done > 0) ? done / ((measuredEnd - measuredStart) / 1e9) : 0;
		this.report.finish(name, List.of(handle), sent);
		this.report.record(name, Arrays.copyOf(latencies, done), Arrays.copyOf(sends, done), throughput);
	}

	private void concurrent(EmbeddedDatabase database) {
		int workflows = this.options.workflows();
		int threads = this.options.threads();
		String name = "concurrent: " + workflows + " runs, " + threads + " sender threads";
		int warmup = this.options.concurrentWarmup();
		int measured = this.options.concurrentSignals();
		int total = warmup + measured;
		try (HikariDataSource pool = database.pool("node-a", this.options.poolSize())) {
			WorkflowEngine node = this.nodes.engine(pool, "bench_concurrent");
			try {
				HandlerProbe.reset(total);
				List<WorkflowHandle<Long>> handles = new ArrayList<>();
				for (int i = 0; i < workflows; i++) {
					WorkflowHandle<Long> started = node.client()
						.start(SignalSinkWorkflow::run, StartOptions.withId("sink-" + i + "-" + UUID.randomUUID()));
					handles.add(node.client().handle(started.workflowId(), Long.class));
				}
				long[] sentAt = new long[total];
				long[] sends = new long[total];
				long deadline = System.nanoTime() + this.options.variantTimeout().toNanos();
				int sentWarmup = blast(handles, threads, 0, warmup, sentAt, sends, deadline);
				if (!awaitAll(name, sentWarmup, deadline)) {
					this.report.finish(name, handles, sentWarmup);
					return;
				}
				int sentMeasured = blast(handles, threads, warmup, total, sentAt, sends, deadline);
				int sentTotal = sentWarmup + sentMeasured;
				boolean complete = awaitAll(name, sentTotal, deadline);
				if (sentTotal < total) {
					this.report.problem(name + ": stopped after " + sentTotal + " of " + total + " signals, past the "
							+ this.options.variantTimeout().toSeconds() + " s bound");
				}
				List<Long> latencies = new ArrayList<>();
				List<Long> sendTimes = new ArrayList<>();
				long first = Long.MAX_VALUE;
				long last = Long.MIN_VALUE;
				for (int seq = warmup; seq < total; seq++) {
					long handledAt = HandlerProbe.handledAt(seq);
					if (sentAt[seq] == 0) {
						continue;
					}
					first = Math.min(first, sentAt[seq]);
					if (handledAt != 0) {
						latencies.add(handledAt - sentAt[seq]);
						sendTimes.add(sends[seq]);
						last = Math.max(last, handledAt);
					}
				}
				double throughput = (complete && !latencies.isEmpty()) ? latencies.size() / ((last - first) / 1e9) : 0;
				this.report.reportDrift(name, toArray(latencies));
				this.report.finish(name, handles, sentTotal);
				this.report.record(name, toArray(latencies), toArray(sendTimes), throughput);
			}
			finally {
				node.shutdown();
			}
		}
	}

	/**
	 * Sends signals {@code from .. to - 1} from several threads, signal {@code seq} to
	 * run {@code seq % runs}; each thread sends its next signal as soon as the previous
	 * send returned. Returns how many were sent (all of them unless the deadline passed);
	 * {@code sentAt[seq]} is left 0 for a signal not sent.
	 */
	private int blast(List<WorkflowHandle<Long>> handles, int threads, int from, int to, long[] sentAt, long[] sends,
			long deadline) {
		AtomicInteger next = new AtomicInteger(from);
		AtomicInteger sent = new AtomicInteger();
		AtomicReference<RuntimeException> failure = new AtomicReference<>();
		List<Thread> senders = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			senders.add(Thread.ofPlatform().name("sender-" + t).start(() -> {
				int seq;
				while (failure.get() == null && System.nanoTime() < deadline && (seq = next.getAndIncrement()) < to) {
					long before = System.nanoTime();
					try {
						handles.get(seq % handles.size())
							.signal(SignalSinkWorkflow::ping, new SignalSinkWorkflow.Ping(seq));
					}
					catch (RuntimeException ex) {
						failure.compareAndSet(null, ex);
						return;
					}
					sends[seq] = System.nanoTime() - before;
					sentAt[seq] = before;
					sent.incrementAndGet();
				}
			}));
		}
		for (Thread sender : senders) {
			try {
				sender.join();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
		if (failure.get() != null) {
			throw failure.get();
		}
		return sent.get();
	}

	private boolean awaitAll(String name, int count, long deadline) {
		long left = Math.max(LOST_AFTER_NANOS, deadline - System.nanoTime());
		if (HandlerProbe.awaitCount(count, left)) {
			return true;
		}
		this.report.problem(name + ": only " + HandlerProbe.handledCount() + " of " + count + " handlers ran within "
				+ TimeUnit.NANOSECONDS.toSeconds(left) + " s");
		return false;
	}

	private static long[] toArray(List<Long> values) {
		return values.stream().mapToLong(Long::longValue).toArray();
	}

	/**
	 * What to run.
	 *
	 * @param variants which variants, in order: one-node, two-nodes, concurrent
	 * @param warmup sequential variants: signals sent before measuring
	 * @param signals sequential variants: signals measured
	 * @param workflows concurrent variant: runs receiving signals
	 * @param threads concurrent variant: sender threads
	 * @param concurrentWarmup concurrent variant: signals sent before measuring
	 * @param concurrentSignals concurrent variant: signals measured
	 * @param poolSize connections per node's pool
	 * @param synchronousCommit PostgreSQL {@code synchronous_commit} (on or off)
	 * @param fsync PostgreSQL {@code fsync} (on or off)
	 * @param variantTimeout the bound on one variant's sending
	 */
	record Options(List<String> variants, int warmup, int signals, int workflows, int threads, int concurrentWarmup,
			int concurrentSignals, int poolSize, String synchronousCommit, String fsync, Duration variantTimeout) {

		static Options defaults() {
			int cores = Runtime.getRuntime().availableProcessors();
			return new Options(List.of("one-node", "two-nodes", "concurrent"), 200, 2000, 50, 8, 1000, 5000,
					2 * cores + 4, "on", "on", Duration.ofSeconds(60));
		}

	}

}
