package dev.durable.generatedclient;

import dev.durable.workflow.activity.Activity;

/** Picks who works on a ticket. */
@Activity
public class Triage {

	public String assign(String title, int priority) {
		return (priority >= 3) ? "on-call" : "queue-" + (title.length() % 3);
	}

}
