package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sticky cache: first task on the starting node, eviction, replay on the next wake,
 * quiet logs.
 */
class CacheTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Counter {

		public int next(int value) {
			return value + 1;
		}

	}

	/** Counts through activities and timers, logging each step. */
	@Workflow("counting")
	public static class CountingWorkflow {

		private static final org.slf4j.Logger log = Workflows.logger(CountingWorkflow.class);

		private final Counter counter;

		public CountingWorkflow(Counter counter) {
			this.counter = counter;
		}

		@WorkflowRun
		public int run(int steps) {
			int value = 0;
			for (int i = 0; i < steps; i++) {
				value = this.counter.next(value);
				log.info("step {} of {}", i, Workflows.info().workflowId());
				Workflows.sleep(Duration.ofMinutes(1));
			}
			return value;
		}

	}

	@Test
	void aStartRunsItsFirstTaskOnTheStartingNodeWithoutPolling() {
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(CountingWorkflow.class)
			.registerActivities(new Counter())
			.pollInterval(Duration.ofHours(1)));
		WorkflowHandle<Integer> handle = engine.client().start(CountingWorkflow::run, 1, StartOptions.DEFAULT);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofMinutes(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo(1);
	}

	@Test
	void evictedRunsReplayOnTheirNextWakeAndLogOnlyOnce() {
		Logger logger = (Logger) LoggerFactory.getLogger(CountingWorkflow.class);
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		logs.start();
		logger.addAppender(logs);
		try {
			WorkflowEngine engine = this.engines.start(this.engines.builder()
				.register(CountingWorkflow.class)
				.registerActivities(new Counter())
				.maxCachedRuns(1));
			List<WorkflowHandle<Integer>> handles = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				handles.add(engine.client().start(CountingWorkflow::run, 3, StartOptions.withId("count-" + i)));
			}
			for (int step = 0; step < 3; step++) {
				int timers = step;
				await().until(() -> this.engines.count("timer") == 4 && engine.cachedRuns() <= 1
						&& this.engines.count("history") == 4 * (2 * timers + 2));
				this.engines.clock.advance(Duration.ofMinutes(1));
			}
			for (WorkflowHandle<Integer> handle : handles) {
				assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo(3);
				Engines.assertReplays(engine, handle.runId());
			}
			assertThat(logs.list).hasSize(12);
			assertThat(logs.list)
				.allSatisfy((event) -> assertThat(event.getMDCPropertyMap()).containsKeys("workflowId", "runId"));
		}
		finally {
			logger.detachAppender(logs);
		}
	}

}
