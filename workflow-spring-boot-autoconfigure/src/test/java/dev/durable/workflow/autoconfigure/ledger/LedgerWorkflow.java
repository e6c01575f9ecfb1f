package dev.durable.workflow.autoconfigure.ledger;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** Books one entry. */
@Workflow("ledger")
public class LedgerWorkflow {

	private final Ledger ledger;

	public LedgerWorkflow(Ledger ledger) {
		this.ledger = ledger;
	}

	/**
	 * @param request {@code table:entry:amount}
	 */
	@WorkflowRun
	public String run(String request) {
		String[] parts = request.split(":");
		return this.ledger.book(parts[0], parts[1], Integer.parseInt(parts[2]));
	}

}
