package dev.durable.workflow.activity;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * An attempt running on a node that dies counts as a failed attempt on the node that
 * takes the run over: the retry policy (backoff, maximum attempts) applies, and the
 * attempt number tells.
 */
class LostAttemptTest {

	static final List<String> EXECUTIONS = new CopyOnWriteArrayList<>();

	static final CountDownLatch NEVER = new CountDownLatch(1);

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
		EXECUTIONS.clear();
	}

	@Activity
	public static class Payment {

		private final String node;

		public Payment(String node) {
			this.node = node;
		}

		@ActivityMethod(maxAttempts = 1)
		public String chargeOnce(String order) {
			return charge(order);
		}

		@ActivityMethod(maxAttempts = 3, initialInterval = "PT5S")
		public String charge(String order) {
			EXECUTIONS.add(this.node + ":" + ActivityContext.current().info().attempt());
			if (this.node.equals("a")) {
				try {
					NEVER.await(); // node a freezes in the middle of the attempt
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return "charged " + order + " on " + this.node;
		}

	}

	@Workflow("pay")
	public static class PayWorkflow {

		private final Payment payment;

		public PayWorkflow(Payment payment) {
			this.payment = payment;
		}

		@WorkflowRun
		public String run(String order) {
			return order.startsWith("once") ? this.payment.chargeOnce(order) : this.payment.charge(order);
		}

	}

	private WorkflowHandle<String> startOnAFreezingNode(String order) {
		StallingHooks hooks = new StallingHooks();
		WorkflowEngine a = this.engines.start(
				this.engines.builder().register(PayWorkflow.class).registerActivities(new Payment("a")).hooks(hooks));
		WorkflowHandle<String> handle = a.client().start(PayWorkflow::run, order, StartOptions.withId(order));
		await().until(() -> EXECUTIONS.size() == 1);
		// the first attempt of an inline activity has no row: the takeover starts from
		// the history
		assertThat(this.engines.count("activity")).isZero();
		hooks.stallHeartbeats = true;
		WorkflowEngine b = this.engines
			.start(this.engines.builder().register(PayWorkflow.class).registerActivities(new Payment("b")));
		// observed through b: a, its heartbeat stalled past its lease, fences itself and
		// answers no calls
		return b.client().handle(handle.workflowId(), String.class);
	}

	@Test
	void theLostAttemptCountsAndTheRetryBacksOff() {
		WorkflowHandle<String> handle = startOnAFreezingNode("order-1");
		await().until(() -> !handle.describe().pendingActivities().isEmpty()
				&& handle.describe().pendingActivities().get(0).attempt() == 2);
		assertThat(handle.describe().pendingActivities().get(0).lastFailure()).contains("NodeLost");
		assertThat(EXECUTIONS).containsExactly("a:1");
		this.engines.clock.advance(Duration.ofSeconds(5));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("charged order-1 on b");
		assertThat(EXECUTIONS).containsExactly("a:1", "b:2");
	}

	@Test
	void anActivityAllowedOneAttemptIsNotRunAgain() {
		WorkflowHandle<String> handle = startOnAFreezingNode("once-2");
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(20))).isInstanceOf(WorkflowFailedException.class)
			.cause()
			.isInstanceOf(ActivityFailure.class)
			.cause()
			.isInstanceOf(ApplicationFailure.class)
			.satisfies((ex) -> assertThat(((ApplicationFailure) ex).getType()).isEqualTo("NodeLost"));
		assertThat(EXECUTIONS).containsExactly("a:1");
	}

}
