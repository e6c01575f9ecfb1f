package dev.durable.workflow.versioning.it;

import dev.durable.workflow.activity.Activity;

/** The activity both builds of the versioned application share. */
@Activity
public class Steps {

	public String step(String name) {
		return name;
	}

}
