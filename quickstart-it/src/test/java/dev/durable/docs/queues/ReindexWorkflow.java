package dev.durable.docs.queues;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** The workflow the guide's debounced starts run. */
@Workflow("reindex")
public class ReindexWorkflow {

	@WorkflowRun
	public String run(CatalogChange change) {
		return "reindexed " + change.catalogId();
	}

}
