package dev.durable.docs.events;

import dev.durable.workflow.activity.Activity;

/** The activity of the guide's {@link ReportWorkflow}. */
@Activity
public class ReportActivities {

	public String render(String part) {
		return "rendered " + part;
	}

}
