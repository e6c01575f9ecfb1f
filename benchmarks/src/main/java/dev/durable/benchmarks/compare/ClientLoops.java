package dev.durable.benchmarks.compare;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Closed-loop clients of the comparison: platform threads that run operations and time
 * each one.
 */
final class ClientLoops {

	private ClientLoops() {
	}

	/**
	 * One measured loop.
	 *
	 * @param count operations (workflows)
	 * @param nanos wall time of the loop
	 * @param latencies each operation's latency
	 */
	record Loop(int count, long nanos, long[] latencies) {
	}

	/**
	 * Runs {@code count} operations on {@code concurrency} platform threads; each op's
	 * latency.
	 */
	static Loop loop(int concurrency, int count, IntConsumer op) {
		long[] latencies = new long[count];
		AtomicInteger next = new AtomicInteger();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> threads = new ArrayList<>();
		long start = System.nanoTime();
		for (int t = 0; t < concurrency; t++) {
			threads.add(Thread.ofPlatform().name("client-" + t).start(() -> {
				int i;
				try {
					while (failure.get() == null && (i = next.getAndIncrement()) < count) {
						long before = System.nanoTime();
						op.accept(i);
						latencies[i] = System.nanoTime() - before;
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			}));
		}
		threads.forEach(ClientLoops::join);
		long nanos = System.nanoTime() - start;
		if (failure.get() != null) {
			throw new IllegalStateException(failure.get().toString(), failure.get());
		}
		return new Loop(count, nanos, latencies);
	}

	/** Runs operations on {@code concurrency} platform threads until the time is up. */
	static Loop loopFor(int concurrency, Duration time, IntConsumer op) {
		long deadline = System.nanoTime() + time.toNanos();
		AtomicInteger next = new AtomicInteger();
		AtomicInteger done = new AtomicInteger();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> threads = new ArrayList<>();
		long start = System.nanoTime();
		for (int t = 0; t < concurrency; t++) {
			threads.add(Thread.ofPlatform().name("warm-" + t).start(() -> {
				try {
					while (failure.get() == null && System.nanoTime() < deadline) {
						op.accept(next.getAndIncrement());
						done.incrementAndGet();
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			}));
		}
		threads.forEach(ClientLoops::join);
		if (failure.get() != null) {
			throw new IllegalStateException(failure.get().toString(), failure.get());
		}
		return new Loop(Math.max(1, done.get()), System.nanoTime() - start, new long[0]);
	}

	static void join(Thread thread) {
		try {
			thread.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	static void sleep(Duration time) {
		try {
			Thread.sleep(time);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	static long usedHeapAfterGc() {
		for (int i = 0; i < 3; i++) {
			System.gc();
			sleep(Duration.ofMillis(100));
		}
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

}
