package dev.durable.workflow.web.browser;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/**
 * Its activity keeps failing and is retried: a pending activity with attempts and a last
 * failure.
 */
@Workflow("ledger-sync")
public class LedgerSyncWorkflow {

	private final Warehouse warehouse;

	public LedgerSyncWorkflow(Warehouse warehouse) {
		this.warehouse = warehouse;
	}

	@WorkflowRun
	public void run(String account) {
		this.warehouse.syncLedger(account);
	}

}
