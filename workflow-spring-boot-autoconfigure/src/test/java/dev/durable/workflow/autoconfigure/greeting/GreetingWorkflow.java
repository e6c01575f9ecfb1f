package dev.durable.workflow.autoconfigure.greeting;

import java.time.Duration;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

@Workflow("greeting")
public class GreetingWorkflow {

	private final Greeter greeter;

	private final Farewells farewells;

	private final Punctuation punctuation;

	public GreetingWorkflow(Greeter greeter, Farewells farewells, Punctuation punctuation) {
		this.greeter = greeter;
		this.farewells = farewells;
		this.punctuation = punctuation;
	}

	@WorkflowRun
	public String run(String name) {
		String hello = this.greeter.greet(name);
		Workflows.sleep(Duration.ofMillis(50));
		return hello + this.punctuation.mark() + " " + this.farewells.farewell(name) + this.punctuation.mark();
	}

}
