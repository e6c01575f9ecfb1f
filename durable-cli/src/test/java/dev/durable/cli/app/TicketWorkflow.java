package dev.durable.cli.app;

import java.util.ArrayList;
import java.util.List;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.UpdateValidator;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/**
 * A support ticket that collects notes until it is closed; its priority can be updated.
 */
@Workflow("ticket")
public class TicketWorkflow {

	private final List<String> notes = new ArrayList<>();

	private int priority;

	private boolean closed;

	/**
	 * A ticket.
	 *
	 * @param title what it is about
	 * @param priority 1 (highest) and up
	 */
	public record Ticket(String title, int priority) {
	}

	@WorkflowRun
	public String run(Ticket ticket) {
		this.priority = ticket.priority();
		Workflows.await(() -> this.closed);
		return ticket.title() + " closed at priority " + this.priority + " with notes " + this.notes;
	}

	@SignalMethod
	public void addNote(String note) {
		this.notes.add(note);
	}

	@SignalMethod
	public void close() {
		this.closed = true;
	}

	@QueryMethod
	public List<String> notes() {
		return this.notes;
	}

	@UpdateMethod
	public int setPriority(int priority) {
		this.priority = priority;
		return priority;
	}

	@UpdateValidator(update = "setPriority")
	public void validateSetPriority(int priority) {
		if (priority <= 0) {
			throw new IllegalArgumentException("priority must be positive, was " + priority);
		}
	}

}
