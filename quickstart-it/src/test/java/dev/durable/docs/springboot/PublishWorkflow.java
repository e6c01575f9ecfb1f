package dev.durable.docs.springboot;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

// @formatter:off
// snippet:spring-boot-worker-only-node part 2
@Workflow("publish")                                   // on the workflow nodes
public class PublishWorkflow {
  private final Transcoding transcoding;
  public PublishWorkflow(Transcoding transcoding) { this.transcoding = transcoding; }
  @WorkflowRun public String run(String video) { return this.transcoding.transcode(video); }
}
// end-snippet
// @formatter:on
