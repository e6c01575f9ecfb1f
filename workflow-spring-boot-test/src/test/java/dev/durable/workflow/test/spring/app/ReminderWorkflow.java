package dev.durable.workflow.test.spring.app;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import java.time.Duration;

/** Reminds after 48 hours unless told it is done. */
@Workflow("reminder")
public class ReminderWorkflow {

	private final Mailer mailer;

	private boolean done;

	public ReminderWorkflow(Mailer mailer) {
		this.mailer = mailer;
	}

	@WorkflowRun
	public String run(String who) {
		if (Workflows.await(Duration.ofHours(48), () -> this.done)) {
			return "done at " + Workflows.now();
		}
		return this.mailer.remind(who) + " at " + Workflows.now();
	}

	@SignalMethod
	public void done() {
		this.done = true;
	}

}
