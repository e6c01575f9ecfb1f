package dev.durable.docs.operations;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.ActivityOptionsUpdate;
import dev.durable.workflow.client.PendingActivity;
import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.test.TestWorkflowEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The operations guide's activity operations and the activities guide's retry policy that
 * pauses, run against an order whose charge fails while its payment provider is down.
 */
class ActivityOperationsSnippetsTest {

	// snippet:activities-pause-when-exhausted
	@Activity
	public interface Payments {

		@ActivityMethod(maxAttempts = 5, initialInterval = "PT1M", pauseWhenExhausted = true)
		String charge(String order);

	}
	// end-snippet

	/** The payment provider: down until a test brings it back. */
	public static class Provider implements Payments {

		static volatile boolean up;

		@Override
		public String charge(String order) {
			if (!up) {
				throw ApplicationFailure.newFailure("payment provider unreachable", "ProviderDown");
			}
			return "charged " + order;
		}

	}

	@Workflow("order")
	public static class Order {

		private final Payments payments;

		public Order(Payments payments) {
			this.payments = payments;
		}

		@WorkflowRun
		public String run(String id) {
			return this.payments.charge(id);
		}

	}

	@Test
	void pauseUpdateUnpauseAndResetAnActivity() {
		Provider.up = false;
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.builder()
			.registerWorkflows(Order.class)
			.registerActivities(new Provider())
			.autoTimeSkipping(false)
			.build()) {
			WorkflowClient client = env.client();
			client.start(Order::run, "42", StartOptions.withId("order-42"));
			await().until(() -> client.handle("order-42")
				.describe()
				.pendingActivities()
				.stream()
				.anyMatch((a) -> a.lastFailure() != null));
			Provider.up = true;
			// @formatter:off
			// snippet:operations-activity-operations
			WorkflowHandle<Object> order = client.handle("order-42");
			PendingActivity charge = order.describe().pendingActivities().get(0);
			long id = charge.activityId();
			order.pauseActivity(id, "payment provider outage");  // false when it was paused already
			order.updateActivityOptions(id, ActivityOptionsUpdate.of()  // for the attempts to come
				.startToCloseTimeout(Duration.ofMinutes(2))
				.retryPolicy(RetryPolicy.builder().maximumAttempts(10).build()));
			order.unpauseActivity(id);                            // its next attempt when due
			order.resetActivity(id, false);                       // attempt 1, now, without heartbeat details
			// end-snippet
			// @formatter:on
			assertThat(order.result(Duration.ofSeconds(30))).isEqualTo("charged 42");
			assertThat(order.history()).extracting((event) -> event.type())
				.contains("ACTIVITY_PAUSED", "ACTIVITY_OPTIONS_UPDATED", "ACTIVITY_UNPAUSED", "ACTIVITY_RESET");
		}
	}

	@Test
	void exhaustedRetriesPauseTheActivity() {
		Provider.up = false;
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.builder()
			.registerWorkflows(Order.class)
			.registerActivities(new Provider())
			.build()) {
			WorkflowHandle<String> order = env.client().start(Order::run, "43", StartOptions.withId("order-43"));
			// the five attempts fail within the retry intervals (1, 2, 4 and 8 minutes),
			// then
			// the activity waits
			env.sleep(Duration.ofMinutes(20));
			await().until(() -> order.waitingOn().stream().anyMatch((w) -> w.kind() == RunWait.Kind.ACTIVITY_PAUSED));
			assertThat(order.describe().pendingActivities().get(0).pauseReason())
				.startsWith("activity paused after 5 attempts");
			Provider.up = true;
			order.unpauseActivity(order.describe().pendingActivities().get(0).activityId());
			assertThat(order.result(Duration.ofSeconds(30))).isEqualTo("charged 43");
		}
	}

}
