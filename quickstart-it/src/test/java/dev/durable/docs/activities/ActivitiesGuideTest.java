package dev.durable.docs.activities;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.test.TestWorkflowEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The snippets of {@code docs/activities.md} that run on their own, run. */
class ActivitiesGuideTest {

	@Test
	void localActivitiesQuoteInOneTask() {
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.create()) {
			env.registerWorkflows(QuoteWorkflow.class).registerActivities(new Pricing());
			Quote quote = env.client()
				.execute(QuoteWorkflow::run, new QuoteRequest("vip-7", List.of("tea", "cups")),
						StartOptions.withId("quote-1"));
			assertThat(quote).isEqualTo(new Quote("vip-7", 180));
		}
	}

	@Test
	void anActivityCompletedLaterThroughItsToken() {
		ApprovalInbox inbox = new ApprovalInbox();
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.create()) {
			env.registerWorkflows(ApprovalWorkflow.class).registerActivities(new ApprovalRequests(inbox));
			WorkflowHandle<String> handle = env.client()
				.start(ApprovalWorkflow::run, "order-7", StartOptions.withId("approval-7"));
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(inbox.token("order-7")).as("the task token handed out").isNotNull());
			ActivitiesGuideSnippets.completeLater(env.client(), inbox.token("order-7"));
			assertThat(handle.result()).isEqualTo("approved");
		}
	}

}
