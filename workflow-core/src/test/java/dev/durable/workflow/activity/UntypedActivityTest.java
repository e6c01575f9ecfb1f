package dev.durable.workflow.activity;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.ActivityStub;
import dev.durable.workflow.Promise;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Activities called by their type name, without an interface:
 * {@code Workflows.activity(name, options)}.
 */
class UntypedActivityTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	public record Order(String id, int amount) {
	}

	@Activity
	public static class Billing {

		@ActivityMethod(name = "charge")
		public Map<String, Object> charge(Order order, String currency) {
			return Map.of("order", order.id(), "charged", order.amount(), "currency", currency);
		}

		public int total(List<Integer> amounts) {
			return amounts.stream().mapToInt(Integer::intValue).sum();
		}

	}

	/** Calls the billing activities by name; the workflow knows no interface of them. */
	@Workflow("untyped-billing")
	public static class UntypedBillingWorkflow {

		@WorkflowRun
		public String run(String orderId) {
			ActivityOptions options = ActivityOptions.builder().startToCloseTimeout(Duration.ofSeconds(10)).build();
			@SuppressWarnings("unchecked")
			Map<String, Object> receipt = Workflows.activity("charge", options)
				.execute(Map.class, new Order(orderId, 42), "EUR");
			Promise<Integer> total = Workflows.activity("total", options).executeAsync(Integer.class, List.of(1, 2, 3));
			int sum = Workflows.activity("total", options).execute(int.class, List.of(4, 5));
			return receipt.get("order") + " " + receipt.get("charged") + " " + receipt.get("currency") + " "
					+ total.get() + " " + sum;
		}

	}

	@Workflow("untyped-unknown")
	public static class UnknownActivityWorkflow {

		@WorkflowRun
		public String run(String input) {
			return Workflows.activity("no-such-activity", ActivityOptions.DEFAULT).execute(String.class, input);
		}

	}

	@Test
	void anActivityIsCalledByItsNameAndItsResultConverted() {
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(UntypedBillingWorkflow.class).registerActivities(new Billing()));
		WorkflowHandle<String> handle = engine.client()
			.start(UntypedBillingWorkflow::run, "o-1", StartOptions.withId("untyped-1"));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("o-1 42 EUR 6 9");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void anUnknownActivityNameFailsTheCallForGood() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(UnknownActivityWorkflow.class));
		WorkflowHandle<String> handle = engine.client()
			.start(UnknownActivityWorkflow::run, "x", StartOptions.withId("untyped-2"));
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(20))).isInstanceOf(WorkflowFailedException.class)
			.hasRootCauseMessage("No activity of type 'no-such-activity' is registered on this node");
	}

	@Test
	void outsideWorkflowCodeTheStubRefusesToRun() {
		ActivityStub stub = Workflows.activity("charge", ActivityOptions.DEFAULT);
		assertThatThrownBy(() -> stub.execute(String.class, "x")).isInstanceOf(IllegalStateException.class);
		assertThatThrownBy(() -> Workflows.activity(" ", ActivityOptions.DEFAULT))
			.isInstanceOf(IllegalArgumentException.class);
	}

}
