package dev.durable.chaos;

import java.time.Duration;

import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/**
 * What each chaos run does: five activities, a durable timer, a wait for the signal
 * {@value #SIGNAL}, a child workflow (one activity) and a final activity. Each kind of
 * recorded step the engine has is on the path, so a fault anywhere lands on one of them.
 * The result is the signal's payload, which tells the harness that the signal it sent is
 * the one the run received.
 */
@Workflow(value = ChaosWorkflow.TYPE, receives = ChaosWorkflow.SIGNAL)
public class ChaosWorkflow {

	/** The workflow type. */
	public static final String TYPE = "chaos";

	/** The signal the run waits for after its timer. */
	public static final String SIGNAL = "go";

	/** Steps 1 to 5 before the timer, 6 in the child, 7 at the end. */
	public static final int STEPS = 7;

	private final ChaosSteps steps;

	public ChaosWorkflow(ChaosSteps steps) {
		this.steps = steps;
	}

	@WorkflowRun
	public String run(Duration timer) {
		String id = Workflows.info().workflowId();
		for (int step = 1; step <= 5; step++) {
			this.steps.step(id, step);
		}
		Workflows.sleep(timer);
		String signal = Workflows.receive(SIGNAL, String.class);
		Workflows.executeChild(ChaosChildWorkflow::run, id, ChildOptions.withId(id + ":child"));
		this.steps.step(id, STEPS);
		return signal;
	}

}
