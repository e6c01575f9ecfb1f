package dev.durable.docs.workflows;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.test.EmbeddedPostgresSupport;
import dev.durable.workflow.test.TestWorkflowEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The snippets of the workflow guides (workflows, messages, lifecycle) that run on their
 * own, run.
 */
class WorkflowsGuideTest {

	@Test
	void greetingStartedAndAwaitedByMethodReference() {
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.create()) {
			env.registerWorkflows(GreetingWorkflow.class).registerActivities(new Greeter());
			assertThat(WorkflowsGuideSnippets.startAndWait(env.client())).isEqualTo("Hello Ada!");
		}
	}

	@Test
	void engineWithoutSpringStarts() {
		WorkflowEngine engine = WorkflowsGuideSnippets.withoutSpring(EmbeddedPostgresSupport.pooledDataSource());
		try {
			assertThat(engine.workflowTypes()).extracting("name").contains("greeting");
		}
		finally {
			engine.shutdown();
		}
	}

	@Test
	void signalsQueriesAndUpdates() {
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.create()) {
			env.registerWorkflows(AgentRun.class);
			WorkflowClient client = env.client();
			AgentInput input = new AgentInput("write the code");
			// paused from its first activation, so that the messages reach an open run
			client.signalWithStart(AgentRun::run, input, StartOptions.withId("agent-42"), "pause", null);
			WorkflowsGuideSnippets.sendMessages(client, "use the new API", input);
			WorkflowHandle<String> handle = client.handle("agent-42", String.class);
			assertThat(handle.query(AgentRun::status).paused()).isTrue();
			handle.signal(AgentRun::resume);
			assertThat(handle.result()).startsWith("ship it");
		}
	}

	@Test
	void declaredSignalsAreReceivedAndATypoIsRefused() {
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.create()) {
			env.registerWorkflows(ExpenseWorkflow.class);
			WorkflowHandle<String> handle = env.client()
				.start(ExpenseWorkflow::run, new Expense("train ticket", 120), StartOptions.withId("expense-1"));
			assertThatExceptionOfType(UnknownHandlerException.class)
				.isThrownBy(() -> WorkflowsGuideSnippets.sendDeclaredSignals(handle))
				.withMessageContaining("coment");
			handle.signal("comment", "ok");
			assertThat(handle.result()).isEqualTo(new Decision(true, "ann") + ", ok");
		}
	}

	@Test
	void theSagaReleasesTheHoldWhenShippingFails() {
		List<String> released = new CopyOnWriteArrayList<>();
		List<String> canceled = new CopyOnWriteArrayList<>();
		Payments payments = new Payments() {
			@Override
			public String hold(Order order) {
				return "hold-" + order.id();
			}

			@Override
			public void release(String hold) {
				released.add(hold);
			}
		};
		Shipping shipping = new Shipping() {
			@Override
			public void book(Order order) {
				throw ApplicationFailure.newNonRetryableFailure("no carrier for " + order.id(), "NoCarrier");
			}

			@Override
			public void cancel(String orderId) {
				canceled.add(orderId);
			}
		};
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.create()) {
			env.registerWorkflows(SagaWorkflow.class).registerActivities(payments, shipping);
			WorkflowHandle<String> handle = env.client()
				.start(SagaWorkflow::run, new Order("o-1", "c-1", 100), StartOptions.withId("saga-1"));
			assertThatExceptionOfType(WorkflowFailedException.class).isThrownBy(handle::result);
			assertThat(released).containsExactly("hold-o-1");
			assertThat(canceled).isEmpty();
		}
	}

}
