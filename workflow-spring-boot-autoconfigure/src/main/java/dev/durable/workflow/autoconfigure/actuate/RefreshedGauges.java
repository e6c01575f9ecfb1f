package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

import dev.durable.workflow.autoconfigure.WorkflowEngineLifecycle;

/**
 * Gauges of cluster-wide values tagged by a name that appears at run time (a queue, a
 * build): one background thread reads a snapshot every few seconds while the context
 * runs, once for all gauges rather than once per gauge on every scrape, and registers the
 * gauges of the names it sees for the first time.
 */
public abstract class RefreshedGauges<T> implements MeterBinder, SmartLifecycle {

	private static final Log logger = LogFactory.getLog(RefreshedGauges.class);

	private final Duration refresh;

	private final String threadName;

	private final String tag;

	private volatile Map<String, T> snapshot = Map.of();

	private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();

	/** The names whose gauges are registered, by registry. */
	private final Map<MeterRegistry, Set<String>> registered = new ConcurrentHashMap<>();

	private @Nullable ScheduledExecutorService scheduler;

	/**
	 * @param refresh how often the snapshot is read
	 * @param threadName the name of the thread that reads it
	 * @param tag the tag that names what a gauge measures ({@code queue}, {@code build})
	 */
	protected RefreshedGauges(Duration refresh, String threadName, String tag) {
		this.refresh = refresh;
		this.threadName = threadName;
		this.tag = tag;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registries.add(registry);
		registerNew(registry);
	}

	/** Reads the snapshot once, and registers the gauges of the names seen first. */
	public void refresh() {
		this.snapshot = Map.copyOf(read());
		for (MeterRegistry registry : this.registries) {
			registerNew(registry);
		}
	}

	/** Registers the gauges of the names the registry has none of yet. */
	private void registerNew(MeterRegistry registry) {
		Set<String> done = this.registered.computeIfAbsent(registry, (key) -> ConcurrentHashMap.newKeySet());
		for (String name : this.snapshot.keySet()) {
			if (done.add(name)) {
				register(registry, name);
			}
		}
	}

	/** Reads the snapshot the gauges answer from: each value by its name. */
	protected abstract Map<String, T> read();

	/** Registers the gauges of one name, with {@link #gauge}. */
	protected abstract void register(MeterRegistry registry, String name);

	/**
	 * Registers a gauge of one name, tagged with it, that reads the snapshot (0 once the
	 * name is gone from it).
	 */
	protected final void gauge(MeterRegistry registry, String meter, String description, String name,
			ToDoubleFunction<T> value) {
		Gauge.builder(meter, this, (gauges) -> {
			T current = gauges.snapshot.get(name);
			return (current != null) ? value.applyAsDouble(current) : 0;
		}).description(description).tag(this.tag, name).strongReference(true).register(registry);
	}

	/**
	 * Registers a counter of one name, tagged with it, that reads a value of the snapshot
	 * that only grows (it keeps its last value once the name is gone from it, as a
	 * counter must).
	 */
	protected final void counter(MeterRegistry registry, String meter, String description, String name,
			ToDoubleFunction<T> value) {
		double[] last = new double[1];
		FunctionCounter.builder(meter, this, (gauges) -> {
			T current = gauges.snapshot.get(name);
			if (current != null) {
				last[0] = Math.max(last[0], value.applyAsDouble(current));
			}
			return last[0];
		}).description(description).tag(this.tag, name).register(registry);
	}

	private void refreshQuietly() {
		try {
			refresh();
		}
		catch (RuntimeException ex) {
			// the gauges keep the last values; the next refresh tries again
			logger.debug("Reading the values of gauges failed (" + this.threadName + ")", ex);
		}
	}

	@Override
	public synchronized void start() {
		if (this.scheduler == null) {
			ScheduledExecutorService started = Executors
				.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(this.threadName).daemon().factory());
			started.scheduleWithFixedDelay(this::refreshQuietly, 0, this.refresh.toMillis(), TimeUnit.MILLISECONDS);
			this.scheduler = started;
		}
	}

	@Override
	public synchronized void stop() {
		if (this.scheduler != null) {
			this.scheduler.shutdownNow();
			this.scheduler = null;
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return this.scheduler != null;
	}

	/**
	 * After the engine, which migrates the schema the values are read from; stops before
	 * it.
	 */
	@Override
	public int getPhase() {
		return WorkflowEngineLifecycle.PHASE + 1;
	}

}
