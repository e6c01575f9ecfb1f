package dev.durable.workflow.autoconfigure.transactional;

import org.springframework.transaction.annotation.Transactional;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

@Workflow
public class TransactionalWorkflow {

	@WorkflowRun
	@Transactional
	public String run(String input) {
		return input;
	}

}
