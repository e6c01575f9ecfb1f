package dev.durable.benchmarks.compare;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Scenario 4 of the comparison: many workflows parked at once, then all woken by signals.
 */
final class ParkedScenario {

	private final PgCounters counters;

	private final ComparisonReport report;

	private final boolean statements;

	/**
	 * @param statements print the statements each engine ran per woken workflow (option
	 * {@code --statements}; needs {@code pg_stat_statements})
	 */
	ParkedScenario(PgCounters counters, ComparisonReport report, boolean statements) {
		this.counters = counters;
		this.report = report;
		this.statements = statements;
	}

	/**
	 * Many workflows parked on a signal at once (heap and database bytes per parked run),
	 * then all woken: 16 threads send the signals while one client thread waits for the
	 * results in send order. Once per engine (it is the longest scenario).
	 */
	void run(List<Supplier<? extends Contender>> engines, int count) {
		int senders = 16;
		String parkScenario = String.format("park %,d (start, concurrency %d)", count, senders);
		String wakeScenario = String.format("wake %,d (signals from %d threads)", count, senders);
		for (Supplier<? extends Contender> factory : engines) {
			try (Contender engine = factory.get()) {
				run(engine, count, senders, parkScenario, wakeScenario);
			}
		}
	}

	private void run(Contender engine, int count, int senders, String parkScenario, String wakeScenario) {
		String prefix = "park-" + ComparisonScenarios.shortId();
		List<String> ids = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			ids.add(prefix + "-" + i);
		}
		ParkProbe.reset();
		long heapBefore = ClientLoops.usedHeapAfterGc();
		int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
		PgCounters.Snapshot before = this.counters.read(engine.database(), engine.pool());
		ClientLoops.Loop started = ClientLoops.loop(senders, count, (i) -> engine.startWaiting(ids.get(i)));
		if (!ParkProbe.await(count, 10, TimeUnit.MINUTES)) {
			throw new IllegalStateException(
					engine.name() + ": only " + ParkProbe.count() + " of " + count + " workflows reached their wait");
		}
		PgCounters.Snapshot parked = this.counters.read(engine.database(), engine.pool());
		long heapAfter = ClientLoops.usedHeapAfterGc();
		int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
		PgCounters.Snapshot parkDelta = parked.minus(before);
		String notes = String.format("heap %,d B/run, database %,d B/run, platform threads %+d",
				(heapAfter - heapBefore) / count, parkDelta.databaseBytes() / count, threadsAfter - threadsBefore);
		this.report.record(parkScenario, engine.name(), 1, started, parkDelta, notes);
		if (this.statements) {
			new JdbcTemplate(engine.pool()).execute("SELECT pg_stat_statements_reset()");
		}
		ClientLoops.Loop woken = wake(engine, ids, senders);
		if (this.statements) {
			this.report.printStatements(engine, count);
		}
		PgCounters.Snapshot wakeDelta = this.counters.read(engine.database(), engine.pool()).minus(parked);
		this.report.record(wakeScenario, engine.name(), 1, woken, wakeDelta,
				"latency: signal sent to result seen by one client thread waiting in send order");
	}

	private ClientLoops.Loop wake(Contender engine, List<String> ids, int senders) {
		int count = ids.size();
		long[] sentAt = new long[count];
		long[] latencies = new long[count];
		AtomicReference<Throwable> failure = new AtomicReference<>();
		long start = System.nanoTime();
		Thread waiter = Thread.ofPlatform().name("wake-waiter").start(() -> {
			try {
				for (int i = 0; i < count; i++) {
					engine.awaitResult(ids.get(i));
					long now = System.nanoTime();
					while (sentAt[i] == 0 && failure.get() == null) {
						Thread.onSpinWait();
					}
					latencies[i] = now - sentAt[i];
				}
			}
			catch (Throwable ex) {
				failure.compareAndSet(null, ex);
			}
		});
		AtomicInteger next = new AtomicInteger();
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < senders; t++) {
			threads.add(Thread.ofPlatform().name("wake-sender-" + t).start(() -> {
				int i;
				try {
					while (failure.get() == null && (i = next.getAndIncrement()) < count) {
						long before = System.nanoTime();
						engine.signal(ids.get(i));
						sentAt[i] = before;
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			}));
		}
		threads.forEach(ClientLoops::join);
		ClientLoops.join(waiter);
		if (failure.get() != null) {
			throw new IllegalStateException(engine.name() + ": " + failure.get(), failure.get());
		}
		return new ClientLoops.Loop(count, System.nanoTime() - start, latencies);
	}

}
