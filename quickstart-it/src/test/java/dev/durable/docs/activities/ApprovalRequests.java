package dev.durable.docs.activities;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;

/** The activity of the guide's asynchronous completion. */
@Activity
public class ApprovalRequests {

	private final ApprovalInbox approvals;

	public ApprovalRequests(ApprovalInbox approvals) {
		this.approvals = approvals;
	}

	// @formatter:off
	// snippet:activities-async-completion part 1
	public String requestApproval(String orderId) {
	  ActivityContext context = ActivityContext.current();
	  context.doNotCompleteOnReturn();                  // call before handing the token out
	  approvals.send(orderId, context.taskToken());     // opaque, URL-safe
	  return null;                                      // ignored
	}
	// end-snippet
	// @formatter:on

}
