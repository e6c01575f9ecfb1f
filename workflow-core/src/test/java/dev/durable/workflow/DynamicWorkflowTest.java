package dev.durable.workflow;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.payload.EncodedValue;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code @Workflow(dynamic = true)} runs the starts of every type name no named workflow
 * has.
 */
class DynamicWorkflowTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	public record Order(String id, int amount) {
	}

	@Workflow("named")
	public static class NamedWorkflow {

		@WorkflowRun
		public String run(String input) {
			return "named " + input;
		}

	}

	/**
	 * Gets the type name and the input as sent; waits for a "go" signal when asked to.
	 */
	@Workflow(value = "catch-all", dynamic = true)
	public static class CatchAllWorkflow {

		private String signal;

		@SignalMethod(dynamic = true)
		public void onSignal(String name, EncodedValue payload) {
			this.signal = name + "=" + payload.get(String.class);
		}

		@WorkflowRun
		public String run(EncodedValue input) {
			Order order = input.get(Order.class);
			if (order.amount() < 0) {
				Workflows.await(() -> this.signal != null);
			}
			return Workflows.info().workflowType() + " " + order.id() + " " + order.amount()
					+ ((this.signal != null) ? " " + this.signal : "");
		}

	}

	private WorkflowEngine node() {
		return this.engines.start(this.engines.builder().register(NamedWorkflow.class, CatchAllWorkflow.class));
	}

	@Test
	void everyTypeNameWithoutANamedWorkflowRunsTheDynamicOne() {
		WorkflowEngine engine = node();
		WorkflowHandle<Object> any = engine.client()
			.start("invoice", new Order("o-1", 5), StartOptions.withId("dyn-1"));
		assertThat(any.result(String.class)).isEqualTo("invoice o-1 5");
		WorkflowHandle<Object> other = engine.client()
			.start("refund", Map.of("id", "o-2", "amount", 7), StartOptions.withId("dyn-2"));
		assertThat(other.result(String.class)).isEqualTo("refund o-2 7");
		// a named type still runs its own workflow
		assertThat(engine.client().start("named", "x", StartOptions.withId("dyn-3")).result(String.class))
			.isEqualTo("named x");
		assertThat(engine.client().handle("dyn-1").describe().workflowType()).isEqualTo("invoice");
		Engines.assertReplays(engine, any.runId());
	}

	@Test
	void aDynamicRunIsSignalledAndTakenOverByAnotherNode() {
		WorkflowEngine first = node();
		WorkflowHandle<Object> handle = first.client()
			.start("payout", new Order("o-3", -1), StartOptions.withId("dyn-4"));
		org.awaitility.Awaitility.await().until(() -> handle.describe().workflowTasks() >= 1);
		first.shutdown();
		WorkflowEngine second = node();
		// a client-only node accepts any type: a node with a dynamic workflow serves
		// every type
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false));
		assertThat(client.client().start("audit", new Order("o-4", 1), StartOptions.withId("dyn-5")).runId())
			.isNotNull();
		client.client().handle("dyn-4").signal("go", "now");
		// the result through a serving node: the stopped one is not told when the run
		// closes
		assertThat(second.client().handle("dyn-4").result(Duration.ofSeconds(20)).toString())
			.isEqualTo("payout o-3 -1 go=now");
		assertThat(second.client().handle("dyn-5").result(String.class)).isEqualTo("audit o-4 1");
		Engines.assertReplays(second, handle.runId());
	}

	@Test
	void aDynamicTypeStartedIntoAQueueRunsOnceAdmitted() {
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(NamedWorkflow.class, CatchAllWorkflow.class)
			.queue(QueueDefinition.named("bulk").withConcurrency(1)));
		WorkflowHandle<Object> handle = engine.client()
			.start("invoice", new Order("o-7", 3), StartOptions.builder().workflowId("dyn-7").queue("bulk").build());
		assertThat(handle.result(Duration.ofSeconds(20)).toString()).isEqualTo("invoice o-7 3");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aQueuedTypeThatALiveNodeServesByNameIsNotAdmittedByTheDynamicNode() {
		QueueDefinition bulk = QueueDefinition.named("bulk").withConcurrency(4);
		WorkflowEngine dynamic = this.engines
			.start(this.engines.builder().register(CatchAllWorkflow.class).queue(bulk));
		WorkflowEngine named = this.engines.start(this.engines.builder().register(NamedWorkflow.class).queue(bulk));
		WorkflowHandle<Object> handle = dynamic.client()
			.start("named", "y", StartOptions.builder().workflowId("dyn-8").queue("bulk").build());
		assertThat(handle.result(Duration.ofSeconds(20)).toString()).isEqualTo("named y");
		assertThat(named.client().handle("dyn-8").describe().workflowType()).isEqualTo("named");
	}

	@Test
	void withoutADynamicWorkflowAnUnknownTypeIsRefused() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(NamedWorkflow.class));
		assertThatThrownBy(() -> engine.client().start("invoice", "x", StartOptions.withId("dyn-6")))
			.isInstanceOf(UnknownWorkflowTypeException.class);
		assertThat(this.engines.count("workflow_run")).isZero();
	}

	@Test
	void aNodeHasAtMostOneDynamicWorkflow() {
		assertThatThrownBy(() -> this.engines.builder().register(CatchAllWorkflow.class, OtherCatchAll.class).build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("dynamic");
	}

	@Workflow(value = "other-catch-all", dynamic = true)
	public static class OtherCatchAll {

		@WorkflowRun
		public String run(EncodedValue input) {
			return "other";
		}

	}

}
