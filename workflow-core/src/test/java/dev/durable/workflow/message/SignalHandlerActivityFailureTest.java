package dev.durable.workflow.message;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UpdateHandle;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.WorkflowUpdateFailedException;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An engine failure (an {@code ActivityFailure} here) that workflow code lets out fails
 * the run alike from the main method and from a signal handler, and fails only the update
 * from an update handler; the workflow task is never failed and retried for it.
 */
class SignalHandlerActivityFailureTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Payments {

		@ActivityMethod(maxAttempts = 1)
		public String charge(String order) {
			throw new IllegalStateException("card declined for " + order);
		}

	}

	@Workflow("checkout")
	public static class CheckoutWorkflow {

		private final Payments payments;

		private boolean done;

		private String charged = "nothing";

		public CheckoutWorkflow(Payments payments) {
			this.payments = payments;
		}

		@WorkflowRun
		public String run(String mode) {
			if (mode.equals("main")) {
				this.payments.charge("main");
			}
			Workflows.await(() -> this.done);
			return "done after " + this.charged;
		}

		@SignalMethod
		public void charge(String order) {
			this.charged = this.payments.charge(order);
		}

		@UpdateMethod
		public String chargeNow(String order) {
			this.charged = this.payments.charge(order);
			return this.charged;
		}

		@SignalMethod
		public void finish() {
			this.done = true;
		}

	}

	private WorkflowEngine engine() {
		return this.engines
			.start(this.engines.builder().register(CheckoutWorkflow.class).registerActivities(new Payments()));
	}

	private static void assertFailedByTheActivity(WorkflowHandle<String> handle, String order) {
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(20))).isInstanceOf(WorkflowFailedException.class)
			.satisfies((ex) -> assertThat(((WorkflowFailedException) ex).getStatus()).isEqualTo(WorkflowStatus.FAILED))
			.cause()
			.isInstanceOf(ActivityFailure.class)
			.satisfies((ex) -> assertThat(((ActivityFailure) ex).getAttempt()).isEqualTo(1))
			.rootCause()
			.hasMessageContaining("card declined for " + order);
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.FAILED);
	}

	@Test
	void anActivityFailureFromTheMainMethodFailsTheRun() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client()
			.start(CheckoutWorkflow::run, "main", StartOptions.withId("checkout-main"));

		assertFailedByTheActivity(handle, "main");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void anActivityFailureFromASignalHandlerFailsTheRunAlike() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client()
			.start(CheckoutWorkflow::run, "signal", StartOptions.withId("checkout-signal"));

		handle.signal(CheckoutWorkflow::charge, "order-7");

		assertFailedByTheActivity(handle, "order-7");
		assertThat(handle.describe().taskFailure()).isNull();
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void anActivityFailureFromAnUpdateHandlerFailsOnlyThatUpdate() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client()
			.start(CheckoutWorkflow::run, "update", StartOptions.withId("checkout-update"));

		UpdateHandle<String> update = handle.startUpdate(CheckoutWorkflow::chargeNow, "order-8",
				UpdateOptions.withId("charge-8").waitFor(UpdateStage.ACCEPTED));
		assertThatThrownBy(() -> update.result(Duration.ofSeconds(20)))
			.isInstanceOf(WorkflowUpdateFailedException.class)
			.cause()
			.isInstanceOf(ActivityFailure.class)
			.rootCause()
			.hasMessageContaining("card declined for order-8");
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(handle.describe().taskFailure()).isNull();

		// the run goes on
		handle.signal(CheckoutWorkflow::finish);
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("done after nothing");
		Engines.assertReplays(engine, handle.runId());
	}

}
