package dev.durable.docs.springboot;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;

// @formatter:off
// snippet:spring-boot-worker-only-node part 1
@Activity
public interface Transcoding {                        // shared by both kinds of node
  @ActivityMethod(taskQueue = "gpu", startToCloseTimeout = "PT10M")
  String transcode(String video);
}
// end-snippet
// @formatter:on
