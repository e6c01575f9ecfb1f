package dev.durable.workflow.autoconfigure.greeting;

import java.util.concurrent.atomic.AtomicInteger;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.WorkflowClient;

/**
 * An activity class that is not a component: the auto-configuration makes it a bean. It
 * depends on the workflow client, which must not make a dependency cycle with the engine.
 */
@Activity
public class Greeter {

	private final WorkflowClient client;

	private final AtomicInteger calls = new AtomicInteger();

	public Greeter(WorkflowClient client) {
		this.client = client;
	}

	public String greet(String name) {
		this.calls.incrementAndGet();
		return "Hello " + name;
	}

	public int calls() {
		return this.calls.get();
	}

	public WorkflowClient client() {
		return this.client;
	}

}
