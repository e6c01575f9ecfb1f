package dev.durable.cli.app;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** Uploads a file: one activity, retried every hour while the storage is down. */
@Workflow("upload")
public class UploadWorkflow {

	private final Uploads uploads;

	public UploadWorkflow(Uploads uploads) {
		this.uploads = uploads;
	}

	@WorkflowRun
	public String run(String file) {
		return this.uploads.send(file);
	}

}
