package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.TopicStatus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The topic meters: {@code durable.workflow.topic.events} counts the dispatched events of
 * each topic (never going back), {@code topic.waiting} and {@code topic.undispatched}
 * read the snapshot; a topic seen later gets its meters at that refresh.
 */
class TopicMetricsTest {

	private static TopicStatus topic(String name, long position, long waiting, long undispatched) {
		return new TopicStatus(name, position, Instant.EPOCH, waiting, undispatched);
	}

	@Test
	void eventsWaitingRunsAndUndispatchedEventsPerTopic() {
		AtomicReference<List<TopicStatus>> topics = new AtomicReference<>(List.of(topic("orders", 3, 10, 0)));
		TopicMetrics metrics = new TopicMetrics(topics::get, Duration.ofMinutes(1));
		MeterRegistry registry = new SimpleMeterRegistry();
		metrics.bindTo(registry);
		metrics.refresh();
		assertThat(registry.get("durable.workflow.topic.events").tag("topic", "orders").functionCounter().count())
			.isEqualTo(3);
		assertThat(registry.get("durable.workflow.topic.waiting").tag("topic", "orders").gauge().value()).isEqualTo(10);

		topics.set(List.of(topic("orders", 7, 2, 1), topic("payments", 1, 0, 0)));
		metrics.refresh();
		assertThat(registry.get("durable.workflow.topic.events").tag("topic", "orders").functionCounter().count())
			.isEqualTo(7);
		assertThat(registry.get("durable.workflow.topic.undispatched").tag("topic", "orders").gauge().value())
			.isEqualTo(1);
		assertThat(registry.get("durable.workflow.topic.events").tag("topic", "payments").functionCounter().count())
			.isEqualTo(1);

		topics.set(List.of(topic("payments", 1, 0, 0)));
		metrics.refresh();
		assertThat(registry.get("durable.workflow.topic.events").tag("topic", "orders").functionCounter().count())
			.as("a counter keeps its count when its topic is gone")
			.isEqualTo(7);
		assertThat(registry.get("durable.workflow.topic.waiting").tag("topic", "orders").gauge().value()).isZero();
	}

}
