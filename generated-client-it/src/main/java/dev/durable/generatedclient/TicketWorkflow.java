package dev.durable.generatedclient;

import java.util.ArrayList;
import java.util.List;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/**
 * A support ticket: assigned by an activity, annotated by signals, reassigned by an
 * update, open until the {@code resolve} signal.
 */
@Workflow("ticket")
public class TicketWorkflow {

	/** What a ticket is opened with. */
	public record Ticket(String title, int priority) {
	}

	/** How a ticket was resolved. */
	public record Resolution(String title, String assignee, List<String> notes) {
	}

	private final Triage triage;

	private final List<String> notes = new ArrayList<>();

	private String assignee = "";

	private boolean resolved;

	public TicketWorkflow(Triage triage) {
		this.triage = triage;
	}

	@WorkflowRun
	public Resolution run(Ticket ticket) {
		this.assignee = this.triage.assign(ticket.title(), ticket.priority());
		Workflows.await(() -> this.resolved);
		return new Resolution(ticket.title(), this.assignee, List.copyOf(this.notes));
	}

	@SignalMethod
	public void addNote(String note) {
		this.notes.add(note);
	}

	@SignalMethod
	public void resolve() {
		this.resolved = true;
	}

	@QueryMethod
	public List<String> notes() {
		return this.notes;
	}

	@UpdateMethod
	public String reassign(String assignee) {
		String previous = this.assignee;
		this.assignee = assignee;
		return previous;
	}

}
