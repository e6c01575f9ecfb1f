package dev.durable.docs.workflows;

import tools.jackson.databind.JsonNode;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.payload.EncodedValue;

import static dev.durable.docs.workflows.RemoteSystem.remote;

// @formatter:off
// snippet:workflows-dynamic-activity
@Activity(dynamic = true)
public class Bridge {
  public Object handle(String activityType, EncodedValue[] arguments) {
    return remote.call(activityType, arguments[0].get(JsonNode.class));   // converted to what the caller asked for
  }
}
// end-snippet
// @formatter:on
