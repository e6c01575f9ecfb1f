package dev.durable.docs.activities;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.ActivityOptions;

/** The guide's workflow of local activities. */
@Workflow("quote")
public class QuoteWorkflow {

	// @formatter:off
	// snippet:activities-local
	@WorkflowRun
	public Quote run(QuoteRequest request) {
	    Pricing pricing = Workflows.localActivities(Pricing.class,
	            ActivityOptions.builder().retryPolicy(RetryPolicy.builder().maximumAttempts(3).build()).build());
	    Customer customer = pricing.customer(request.customerId());   // all three run in this task
	    Price base = pricing.basePrice(request.items());
	    return pricing.quote(customer, base);                          // and commit with it, once
	}
	// end-snippet
	// @formatter:on

}
