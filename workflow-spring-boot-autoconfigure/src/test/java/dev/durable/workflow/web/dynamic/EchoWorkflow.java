package dev.durable.workflow.web.dynamic;

import java.util.Map;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.payload.EncodedValue;

/** Answers with the type name it was started as and the input it was sent. */
@Workflow(value = "echo", dynamic = true)
public class EchoWorkflow {

	@WorkflowRun
	public Map<String, Object> run(EncodedValue input) {
		return Map.of("type", Workflows.info().workflowType(), "input", input.get(Map.class));
	}

}
