package dev.durable.docs.workflows;

import dev.durable.workflow.activity.Activity;

/** The shipping activities of the guide's saga. */
@Activity
public interface Shipping {

	void book(Order order);

	void cancel(String orderId);

}
