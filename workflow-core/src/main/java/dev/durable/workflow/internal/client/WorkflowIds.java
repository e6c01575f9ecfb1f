package dev.durable.workflow.internal.client;

import java.util.regex.Pattern;

import dev.durable.workflow.client.InvalidWorkflowIdException;

/**
 * The rule for workflow ids (and schedule ids): 1-255 letters, digits and {@code ._:@-}.
 */
public final class WorkflowIds {

	private static final Pattern WORKFLOW_ID = Pattern.compile("[A-Za-z0-9._:@-]{1,255}");

	private WorkflowIds() {
	}

	/**
	 * @throws InvalidWorkflowIdException when the id breaks the rule
	 */
	public static void check(String workflowId) {
		if (workflowId == null || !WORKFLOW_ID.matcher(workflowId).matches()) {
			throw new InvalidWorkflowIdException(
					"Invalid workflow id '" + workflowId + "': use 1-255 letters, digits and ._:@-");
		}
	}

}
