package dev.durable.docs.workflows;

import java.time.Duration;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/** The delayed workflow of the guide's start delay. */
@Workflow("reminder")
public class ReminderWorkflow {

	private boolean snoozed;

	@WorkflowRun
	public String run(Reminder reminder) {
		if (this.snoozed) {
			Workflows.sleep(Duration.ofHours(1));
		}
		return reminder.text();
	}

	@SignalMethod
	public void snooze() {
		this.snoozed = true;
	}

}
