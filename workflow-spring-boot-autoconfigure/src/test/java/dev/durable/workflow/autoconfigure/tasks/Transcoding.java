package dev.durable.workflow.autoconfigure.tasks;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;

/**
 * An activity of the {@code gpu} task queue: the workflow node knows only this interface,
 * the worker-only node implements it.
 */
@Activity
public interface Transcoding {

	@ActivityMethod(taskQueue = "gpu", startToCloseTimeout = "PT30S")
	String transcode(String video);

}
