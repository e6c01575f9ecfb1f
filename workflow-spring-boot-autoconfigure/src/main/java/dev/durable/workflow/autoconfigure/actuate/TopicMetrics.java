package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;

import dev.durable.workflow.client.TopicStatus;
import dev.durable.workflow.client.WorkflowClient;

/**
 * Meters of the event topics ({@link WorkflowClient#topics()}), tagged {@code topic}:
 * {@code durable.workflow.topic.events} (a counter of the events dispatched on the topic:
 * its rate is the topic's events per second), {@code durable.workflow.topic.waiting} (the
 * waits for its events under way) and {@code durable.workflow.topic.undispatched} (its
 * events published and not dispatched yet: above 0 for long, no worker node dispatches).
 * Cluster-wide values, the same on every node; one tag value per topic (at most 1,000).
 */
public class TopicMetrics extends RefreshedGauges<TopicStatus> {

	/** How often the snapshot is refreshed by default. */
	public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(10);

	private final Supplier<List<TopicStatus>> topics;

	/**
	 * @param topics what the snapshot is read from, typically
	 * {@code WorkflowClient#topics()}
	 * @param refresh how often it is read
	 */
	public TopicMetrics(Supplier<List<TopicStatus>> topics, Duration refresh) {
		super(refresh, "durable-topic-metrics", "topic");
		this.topics = topics;
	}

	@Override
	protected Map<String, TopicStatus> read() {
		Map<String, TopicStatus> current = new LinkedHashMap<>();
		for (TopicStatus topic : this.topics.get()) {
			current.put(topic.topic(), topic);
		}
		return current;
	}

	@Override
	protected void register(MeterRegistry registry, String name) {
		counter(registry, "durable.workflow.topic.events", "Events dispatched on the topic", name,
				TopicStatus::lastPosition);
		gauge(registry, "durable.workflow.topic.waiting", "Waits for the topic's events under way", name,
				TopicStatus::waitingRuns);
		gauge(registry, "durable.workflow.topic.undispatched", "Events of the topic not dispatched yet", name,
				TopicStatus::undispatchedEvents);
	}

}
