package dev.durable.docs.queues;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;

/** Activities on the task queue of the guide's {@code payments} queue. */
@Activity
public interface PaymentActivities {

	// @formatter:off
	// snippet:queues-activity-task-queue
	@ActivityMethod(taskQueue = "payments")                  // limited by the "payments" queue
	Receipt charge(Payment payment);
	// end-snippet
	// @formatter:on

}
