package dev.durable.docs.workflows;

import tools.jackson.databind.JsonNode;

/** The other system the guide's dynamic activity bridges to. */
public final class RemoteSystem {

	/** What {@code remote} stands for in the guide. */
	public static final RemoteSystem remote = new RemoteSystem();

	private RemoteSystem() {
	}

	public Object call(String activityType, JsonNode argument) {
		return activityType + " " + argument;
	}

}
