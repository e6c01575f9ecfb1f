package dev.durable.workflow.internal.client;

import java.util.Optional;
import java.util.UUID;

import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;

/**
 * The run a handle addresses: the latest of its workflow id, or the pinned one. One read
 * of the run row.
 */
public final class RunLookup {

	private final RunRepository runs;

	private final String namespace;

	public RunLookup(RunRepository runs, String namespace) {
		this.runs = runs;
		this.namespace = namespace;
	}

	/**
	 * @throws WorkflowNotFoundException when there is no such run (a pinned run id of
	 * another workflow id or of another namespace sharing the schema names none)
	 */
	RunRow row(String workflowId, UUID pinnedRunId) {
		Optional<RunRow> row = (pinnedRunId != null) ? pinned(workflowId, pinnedRunId)
				: this.runs.findLatest(this.namespace, workflowId);
		return row.orElseThrow(() -> new WorkflowNotFoundException("No workflow with id '" + workflowId + "'"
				+ ((pinnedRunId != null) ? " and run id " + pinnedRunId : "")));
	}

	/**
	 * The run of the id if it is a run of this workflow id in this namespace: run ids are
	 * unique across namespaces, but a handle of one namespace must never reach another's
	 * runs.
	 */
	Optional<RunRow> pinned(String workflowId, UUID runId) {
		return this.runs.find(runId)
			.filter((r) -> r.namespace().equals(this.namespace) && r.workflowId().equals(workflowId));
	}

	/**
	 * The refusal of a message or lifecycle call to a run that closed, with its status as
	 * it is now.
	 */
	WorkflowClosedException closed(RunRow row) {
		return new WorkflowClosedException("Workflow " + row.workflowId() + " (run " + row.runId() + ") is closed: "
				+ this.runs.find(row.runId()).map(RunRow::status).orElse(row.status()));
	}

}
