package dev.durable.workflow.web.outage;

import java.util.ArrayList;
import java.util.List;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/** Collects notes until it is told to finish. */
@Workflow("note")
public class NoteWorkflow {

	private final List<String> notes = new ArrayList<>();

	private boolean finished;

	@WorkflowRun
	public List<String> run(String first) {
		this.notes.add(first);
		Workflows.await(() -> this.finished);
		return this.notes;
	}

	@SignalMethod
	public void add(String note) {
		this.notes.add(note);
	}

	@SignalMethod
	public void finish() {
		this.finished = true;
	}

	@QueryMethod
	public List<String> notes() {
		return this.notes;
	}

}
