package dev.durable.workflow.autoconfigure.tasks.workflows;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.autoconfigure.tasks.Transcoding;

/** Transcodes a video on whichever node serves the gpu task queue. */
@Workflow("transcode")
public class TranscodeWorkflow {

	private final Transcoding transcoding;

	public TranscodeWorkflow(Transcoding transcoding) {
		this.transcoding = transcoding;
	}

	@WorkflowRun
	public String run(String video) {
		return "published " + this.transcoding.transcode(video);
	}

}
