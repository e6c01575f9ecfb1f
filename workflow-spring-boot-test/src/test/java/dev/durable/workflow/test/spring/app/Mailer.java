package dev.durable.workflow.test.spring.app;

import dev.durable.workflow.activity.Activity;

/** Sends reminders (here: only says so). */
@Activity
public class Mailer {

	public String remind(String who) {
		return "reminded " + who;
	}

}
