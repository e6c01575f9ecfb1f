package dev.durable.docs.workflows;

import dev.durable.workflow.activity.Activity;

/** The payment activities of the guide's saga. */
@Activity
public interface Payments {

	String hold(Order order);

	void release(String hold);

}
