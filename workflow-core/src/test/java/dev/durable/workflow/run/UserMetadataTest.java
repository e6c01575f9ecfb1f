package dev.durable.workflow.run;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowExecution;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * User metadata: a start's summary and details, shown in describe and the run list, and
 * the current details the workflow code sets, read from the cached instance or a replay
 * (they are state, not history, so replay sets them again and records nothing).
 */
class UserMetadataTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Workflow("picking")
	public static class Picking {

		private int picked;

		@WorkflowRun
		public String run(int items) {
			Workflows.setCurrentDetails("picked 0 of " + items);
			while (this.picked < items) {
				int before = this.picked;
				Workflows.await(() -> this.picked > before);
				Workflows.setCurrentDetails("picked " + this.picked + " of " + items);
			}
			Workflows.setCurrentDetails(null);
			return "packed " + items;
		}

		@SignalMethod
		public void pick() {
			this.picked++;
		}

	}

	private WorkflowEngine node() {
		return this.engines.start(this.engines.builder().register(Picking.class));
	}

	@Test
	void theSummaryAndDetailsOfAStartShowInDescribeAndTheList() {
		WorkflowEngine engine = node();
		WorkflowHandle<String> picking = engine.client()
			.start(Picking::run, 3,
					StartOptions.builder()
						.workflowId("picking-1")
						.summary("Order 42: 3 items for Ada")
						.details("Rush order; gift wrap the mug.")
						.build());
		engine.client().start(Picking::run, 1, StartOptions.withId("picking-2"));

		WorkflowDescription description = picking.describe();
		assertThat(description.summary()).isEqualTo("Order 42: 3 items for Ada");
		assertThat(description.details()).isEqualTo("Rush order; gift wrap the mug.");
		assertThat(engine.client().list(WorkflowFilter.ofType("picking"), 10, null).executions())
			.extracting(WorkflowExecution::workflowId, WorkflowExecution::summary)
			.containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("picking-1", "Order 42: 3 items for Ada"),
					org.assertj.core.groups.Tuple.tuple("picking-2", null));
		assertThat(engine.client().handle("picking-2").describe().summary()).isNull();
	}

	@Test
	void theCurrentDetailsAreTheCodesStateOnEveryNodeAndRecordNothing() {
		WorkflowEngine engine = node();
		WorkflowHandle<String> picking = engine.client().start(Picking::run, 2, StartOptions.withId("picking-3"));
		await().until(() -> "picked 0 of 2".equals(picking.currentDetails()));
		int events = picking.history().size();

		picking.signal(Picking::pick);
		await().until(() -> "picked 1 of 2".equals(picking.currentDetails()));
		// another node has no cached instance: it replays the history to read them
		WorkflowEngine reader = this.engines.start(this.engines.builder().register(Picking.class).worker(false));
		assertThat(reader.client().handle("picking-3").currentDetails()).isEqualTo("picked 1 of 2");
		assertThat(picking.history()).as("the signal's event only: setting them writes none").hasSize(events + 1);

		picking.signal(Picking::pick);
		assertThat(picking.result(Duration.ofSeconds(20))).isEqualTo("packed 2");
		assertThat(picking.currentDetails()).isNull();
		Engines.assertReplays(engine, picking.runId());
	}

	@Test
	void anOverlongSummaryOrDetailsIsRefusedBeforeAnythingStarts() {
		assertThatThrownBy(() -> StartOptions.builder().summary("x".repeat(401)).build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("at most 400");
		assertThatThrownBy(() -> StartOptions.builder().details("x".repeat(20_001)).build())
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> StartOptions.builder().summary("a\u0000b").build())
			.isInstanceOf(IllegalArgumentException.class);
	}

}
