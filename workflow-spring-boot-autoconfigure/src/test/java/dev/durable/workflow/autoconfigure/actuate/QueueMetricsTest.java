package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.durable.workflow.autoconfigure.ops.OpsConfiguration;
import dev.durable.workflow.autoconfigure.ops.WaitingWorkflow;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.QueueInfo;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The queue gauges: {@code durable.workflow.queue.depth}, {@code .running} and
 * {@code .oldest.age}, tagged {@code queue}, read from a snapshot rather than the
 * database.
 */
class QueueMetricsTest {

	/** A source of queue snapshots that counts its reads. */
	static final class Source {

		final AtomicInteger reads = new AtomicInteger();

		final AtomicReference<List<QueueInfo>> queues = new AtomicReference<>(List.of());

		List<QueueInfo> read() {
			this.reads.incrementAndGet();
			return this.queues.get();
		}

	}

	private static QueueInfo queue(String name, long waitingWorkflows, long runningWorkflows, long waitingActivities,
			long runningActivities, Instant oldestWaitingSince) {
		return new QueueInfo(QueueDefinition.named(name).withConcurrency(2), waitingWorkflows, runningWorkflows,
				waitingActivities, runningActivities, oldestWaitingSince);
	}

	private static double gauge(MeterRegistry registry, String name, String queue) {
		return registry.get(name).tag("queue", queue).gauge().value();
	}

	@Test
	void gaugesReadTheSnapshotAndEachRefreshReadsTheQueuesOnce() {
		Source source = new Source();
		source.queues.set(List.of(queue("reports", 3, 2, 1, 0, Instant.now().minusSeconds(90))));
		QueueMetrics metrics = new QueueMetrics(source::read, Duration.ofHours(1));
		MeterRegistry registry = new SimpleMeterRegistry();
		metrics.bindTo(registry);
		assertThat(registry.find("durable.workflow.queue.depth").gauges()).isEmpty();
		metrics.refresh();
		assertThat(source.reads).hasValue(1);
		for (int scrape = 0; scrape < 50; scrape++) {
			assertThat(gauge(registry, "durable.workflow.queue.depth", "reports")).isEqualTo(4);
			assertThat(gauge(registry, "durable.workflow.queue.running", "reports")).isEqualTo(2);
			assertThat(gauge(registry, "durable.workflow.queue.oldest.age", "reports")).isBetween(89.0, 200.0);
		}
		// scrapes never read the database
		assertThat(source.reads).hasValue(1);

		// a queue seen for the first time gets its gauges; one that is gone reads 0
		source.queues.set(List.of(queue("gpu", 0, 0, 5, 1, null)));
		metrics.refresh();
		assertThat(source.reads).hasValue(2);
		assertThat(gauge(registry, "durable.workflow.queue.depth", "gpu")).isEqualTo(5);
		assertThat(gauge(registry, "durable.workflow.queue.running", "gpu")).isEqualTo(1);
		assertThat(gauge(registry, "durable.workflow.queue.oldest.age", "gpu")).isZero();
		assertThat(gauge(registry, "durable.workflow.queue.depth", "reports")).isZero();
		assertThat(gauge(registry, "durable.workflow.queue.oldest.age", "reports")).isZero();

		// a registry bound later gets the gauges of the queues known so far
		MeterRegistry later = new SimpleMeterRegistry();
		metrics.bindTo(later);
		assertThat(gauge(later, "durable.workflow.queue.depth", "gpu")).isEqualTo(5);
	}

	/**
	 * The queues' times are on the engine clock (the database's): the oldest item's age
	 * is counted on it, not on this node's clock, which may be far off.
	 */
	@Test
	void theOldestAgeIsCountedOnTheEngineClock() {
		Instant engineNow = Instant.parse("2026-01-01T00:01:30Z");
		Source source = new Source();
		source.queues.set(List.of(queue("reports", 1, 0, 0, 0, Instant.parse("2026-01-01T00:00:00Z"))));
		QueueMetrics metrics = new QueueMetrics(source::read, () -> engineNow, Duration.ofHours(1));
		MeterRegistry registry = new SimpleMeterRegistry();
		metrics.bindTo(registry);
		metrics.refresh();
		assertThat(gauge(registry, "durable.workflow.queue.oldest.age", "reports")).isEqualTo(90.0);
	}

	@Test
	void whileRunningTheSnapshotIsRefreshedInTheBackgroundAndAFailedReadKeepsTheLastValues() {
		Source source = new Source();
		source.queues.set(List.of(queue("reports", 1, 0, 0, 0, Instant.now())));
		AtomicInteger failures = new AtomicInteger();
		QueueMetrics metrics = new QueueMetrics(() -> {
			if (source.reads.get() >= 2) {
				failures.incrementAndGet();
				throw new IllegalStateException("database down");
			}
			return source.read();
		}, Duration.ofMillis(20));
		MeterRegistry registry = new SimpleMeterRegistry();
		metrics.bindTo(registry);
		metrics.start();
		try {
			assertThat(metrics.isRunning()).isTrue();
			await().until(() -> failures.get() >= 2);
			assertThat(gauge(registry, "durable.workflow.queue.depth", "reports")).isEqualTo(1);
		}
		finally {
			metrics.stop();
		}
		assertThat(metrics.isRunning()).isFalse();
		int reads = source.reads.get() + failures.get();
		await().during(Duration.ofMillis(200)).until(() -> source.reads.get() + failures.get() == reads);
	}

	@Test
	void theGaugesOfAnEngineShowItsQueues() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class))
			.withConfiguration(DurableWorkflowOpsAutoConfigurationTest.ALL)
			.withUserConfiguration(OpsConfiguration.class)
			.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("durable.workflow.schema=" + DurableWorkflowOpsAutoConfigurationTest.newSchema(),
					"durable.workflow.worker.poll-interval=100ms", "durable.workflow.queues.batch.concurrency=1")
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				QueueMetrics metrics = context.getBean(QueueMetrics.class);
				WorkflowClient client = context.getBean(WorkflowClient.class);
				client.start(WaitingWorkflow::run, StartOptions.builder().workflowId("batch-1").queue("batch").build());
				client.start(WaitingWorkflow::run, StartOptions.builder().workflowId("batch-2").queue("batch").build());
				await().untilAsserted(() -> {
					metrics.refresh();
					assertThat(gauge(registry, "durable.workflow.queue.running", "batch")).isEqualTo(1);
					assertThat(gauge(registry, "durable.workflow.queue.depth", "batch")).isEqualTo(1);
				});
				assertThat(gauge(registry, "durable.workflow.queue.oldest.age", "batch")).isGreaterThanOrEqualTo(0);
			});
	}

}
