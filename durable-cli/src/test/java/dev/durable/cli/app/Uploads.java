package dev.durable.cli.app;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.failure.ApplicationFailure;

/** An upload to a storage that is down until a test says otherwise. */
@Activity
public class Uploads {

	/** Whether the storage is up. */
	public static volatile boolean up;

	@ActivityMethod(initialInterval = "PT1H")
	public String send(String file) {
		if (!up) {
			throw ApplicationFailure.newFailure("storage unreachable", "StorageDown");
		}
		return "uploaded " + file;
	}

}
