package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;

import dev.durable.workflow.engine.QueueInfo;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * Gauges of the queues ({@link WorkflowEngine#queues()}), tagged {@code queue}:
 * {@code durable.workflow.queue.depth} (items waiting),
 * {@code durable.workflow.queue.running} (items running) and
 * {@code durable.workflow.queue.oldest.age} (seconds the item waiting longest has waited;
 * 0 when none waits). They are cluster-wide values, the same on every node.
 * <p>
 * The gauges read a snapshot that one background thread refreshes every few seconds while
 * the context runs: reading the database once for all gauges, rather than once per gauge
 * on every scrape. A queue that appears later gets its gauges at the refresh that first
 * sees it; one that is gone reads 0.
 */
public class QueueMetrics extends RefreshedGauges<QueueInfo> {

	/** How often the snapshot is refreshed by default. */
	public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(5);

	private final Supplier<List<QueueInfo>> queues;

	private final Supplier<Instant> now;

	/**
	 * Creates the gauges' source, counting the oldest item's age on this JVM's clock.
	 * @param queues what the snapshot is read from, typically
	 * {@link WorkflowEngine#queues()}
	 * @param refresh how often it is read
	 */
	public QueueMetrics(Supplier<List<QueueInfo>> queues, Duration refresh) {
		this(queues, Instant::now, refresh);
	}

	/**
	 * Creates the gauges' source.
	 * @param queues what the snapshot is read from, typically
	 * {@link WorkflowEngine#queues()}
	 * @param now the clock the queues' times are on, typically
	 * {@link WorkflowEngine#now()}: the oldest item's age is counted on it, so that it
	 * agrees on every node whatever the node's own clock says
	 * @param refresh how often it is read
	 */
	public QueueMetrics(Supplier<List<QueueInfo>> queues, Supplier<Instant> now, Duration refresh) {
		super(refresh, "durable-queue-metrics", "queue");
		this.queues = queues;
		this.now = now;
	}

	@Override
	protected Map<String, QueueInfo> read() {
		Map<String, QueueInfo> current = new LinkedHashMap<>();
		for (QueueInfo queue : this.queues.get()) {
			current.put(queue.definition().name(), queue);
		}
		return current;
	}

	@Override
	protected void register(MeterRegistry registry, String name) {
		gauge(registry, "durable.workflow.queue.depth", "Items waiting in the queue, workflows and activities", name,
				QueueInfo::depth);
		gauge(registry, "durable.workflow.queue.running", "Items of the queue running, workflows and activities", name,
				QueueInfo::running);
		gauge(registry, "durable.workflow.queue.oldest.age", "Seconds the item waiting longest in the queue has waited",
				name, this::oldestAgeSeconds);
	}

	private double oldestAgeSeconds(QueueInfo queue) {
		Instant since = queue.oldestWaitingSince();
		if (since == null) {
			return 0;
		}
		return Math.max(0, Duration.between(since, this.now.get()).toMillis() / 1000.0);
	}

}
