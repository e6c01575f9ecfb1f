package dev.durable.workflow.topic;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.StartOnEvent;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @StartOnEvent} with a batch: events are collected into one run of at most
 * {@code batchSize} (its input the list of their payloads, in order), started when the
 * batch is full or its first event is older than the window on the engine clock.
 */
class EventBatchTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Sums the clicks of up to three events, or what an hour brought. */
	@Workflow("click-batch")
	@StartOnEvent(topic = "clicks", batchSize = 3, batchWindow = "PT1H")
	public static class ClickBatchWorkflow {

		@WorkflowRun
		public String run(List<Map<String, Integer>> clicks) {
			return clicks.size() + " events, " + clicks.stream().mapToInt((c) -> c.get("n")).sum() + " clicks";
		}

	}

	@Test
	void aFullBatchStartsAtOnceAndARestStartsWhenTheWindowPassed() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(ClickBatchWorkflow.class));
		for (int i = 1; i <= 5; i++) {
			engine.client().publish("clicks", Map.of("n", i), "click-" + i);
		}
		assertThat(result(engine, "click-batch:clicks:click-1")).isEqualTo("3 events, 6 clicks");
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engines.count("event_action") == 2);
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);

		this.engines.clock.advance(Duration.ofMinutes(61));
		assertThat(result(engine, "click-batch:clicks:click-4")).isEqualTo("2 events, 9 clicks");
		assertThat(this.engines.count("event_action")).isZero();
		Engines.assertReplays(engine, engine.client().handle("click-batch:clicks:click-4").runId());
	}

	private String result(WorkflowEngine engine, String workflowId) {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.engines.jdbc()
				.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".workflow_run WHERE workflow_id = ?",
						Integer.class, workflowId) == 1);
		return engine.client().handle(workflowId, String.class).result(Duration.ofSeconds(30));
	}

}
