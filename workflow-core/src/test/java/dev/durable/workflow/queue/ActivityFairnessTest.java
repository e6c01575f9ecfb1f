package dev.durable.workflow.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Promise;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.QueueInfo;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fair admission of activity attempts on a task queue limited by the queue of its name:
 * with one attempt at a time, three attempts of a key that came after nine of another are
 * admitted between them, not after them; without fairness they wait for all nine.
 */
class ActivityFairnessTest {

	private static final String QUEUE = "renders";

	/** The order the attempts ran in ("key-i"). */
	static final List<String> RAN = new CopyOnWriteArrayList<>();

	/** Holds the first attempt until the others wait. */
	static volatile CountDownLatch gate;

	private final Engines engines = new Engines();

	@BeforeEach
	void reset() {
		RAN.clear();
		gate = new CountDownLatch(1);
	}

	@AfterEach
	void close() {
		gate.countDown();
		this.engines.close();
	}

	@Activity
	public static class Renders {

		public String render(String key, int i) {
			boolean first = RAN.isEmpty();
			RAN.add(key + "-" + i);
			if (first) {
				try {
					gate.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return key;
		}

	}

	/** Renders {@code count} pages of its key at once, on the queue's task queue. */
	@Workflow("render-batch")
	public static class RenderBatch {

		@WorkflowRun
		public int run(String keyAndCount) {
			String key = keyAndCount.substring(0, keyAndCount.indexOf(':'));
			int count = Integer.parseInt(keyAndCount.substring(keyAndCount.indexOf(':') + 1));
			Renders renders = Workflows.activities(Renders.class,
					ActivityOptions.builder()
						.taskQueue(QUEUE)
						.partitionKey(key)
						.startToCloseTimeout(Duration.ofMinutes(1))
						.build());
			List<Promise<String>> pages = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				int page = i;
				pages.add(Workflows.async(() -> renders.render(key, page)));
			}
			Promise.allOf(pages).get();
			return count;
		}

	}

	private List<String> runBigThenSmall(QueueDefinition queue) {
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(RenderBatch.class)
			.activityTaskQueues(QUEUE)
			.registerActivities(new Renders())
			.queue(queue));
		WorkflowHandle<Integer> big = engine.client().start(RenderBatch::run, "big:10", StartOptions.withId("big"));
		await().atMost(Duration.ofSeconds(30)).until(() -> waiting(engine) == 9 && RAN.size() == 1);
		WorkflowHandle<Integer> small = engine.client()
			.start(RenderBatch::run, "small:3", StartOptions.withId("small"));
		await().atMost(Duration.ofSeconds(30)).until(() -> waiting(engine) == 12);
		gate.countDown();
		assertThat(big.result(Duration.ofSeconds(60))).isEqualTo(10);
		assertThat(small.result(Duration.ofSeconds(60))).isEqualTo(3);
		return List.copyOf(RAN);
	}

	private static long waiting(WorkflowEngine engine) {
		return engine.queues()
			.stream()
			.filter((q) -> q.definition().name().equals(QUEUE))
			.mapToLong(QueueInfo::waitingActivities)
			.sum();
	}

	@Test
	void aFairQueueAdmitsTheLaterKeysAttemptsBetweenTheEarlierKeys() {
		List<String> ran = runBigThenSmall(QueueDefinition.named(QUEUE).withConcurrency(1).withFairness());
		assertThat(ran).as(ran.toString()).hasSize(13).startsWith("big-0");
		// after the held attempt, the keys take turns until the small one has none left
		assertThat(ran.subList(1, 7)).as(ran.toString()).filteredOn((page) -> page.startsWith("small")).hasSize(3);
	}

	@Test
	void withoutFairnessTheLaterKeyWaitsForTheEarlierOne() {
		List<String> ran = runBigThenSmall(QueueDefinition.named(QUEUE).withConcurrency(1));
		assertThat(ran).hasSize(13);
		assertThat(ran.subList(10, 13)).allMatch((page) -> page.startsWith("small"));
	}

}
