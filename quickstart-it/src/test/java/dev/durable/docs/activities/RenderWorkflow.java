package dev.durable.docs.activities;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** The workflow that calls {@link Rendering} on the gpu task queue. */
@Workflow("render")
public class RenderWorkflow {

	private final Rendering rendering;

	public RenderWorkflow(Rendering rendering) {
		this.rendering = rendering;
	}

	@WorkflowRun
	public String run(String scene) {
		return this.rendering.render(scene);
	}

}
