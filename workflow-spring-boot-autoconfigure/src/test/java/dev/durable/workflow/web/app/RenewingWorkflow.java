package dev.durable.workflow.web.app;

import java.util.ArrayList;
import java.util.List;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/**
 * Continues as new once on "renew"; the second run collects notes until it is finished.
 */
@Workflow("renewing")
public class RenewingWorkflow {

	private final List<String> notes = new ArrayList<>();

	private boolean renew;

	private boolean finished;

	@WorkflowRun
	public String run(int generation) {
		if (generation == 1) {
			Workflows.await(() -> this.renew);
			Workflows.continueAsNew(generation + 1);
		}
		Workflows.await(() -> this.finished);
		return "run " + generation + " notes " + this.notes;
	}

	@SignalMethod
	public void renew() {
		this.renew = true;
	}

	@SignalMethod
	public void addNote(String note) {
		this.notes.add(note);
	}

	@SignalMethod
	public void finish() {
		this.finished = true;
	}

	@UpdateMethod
	public int addNoteNow(String note) {
		this.notes.add(note);
		return this.notes.size();
	}

	@QueryMethod
	public List<String> notes() {
		return List.copyOf(this.notes);
	}

}
