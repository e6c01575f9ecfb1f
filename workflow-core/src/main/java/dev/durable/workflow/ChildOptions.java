package dev.durable.workflow;

/**
 * Options of a child workflow.
 *
 * @param workflowId the child's workflow id; when null, a deterministic random UUID
 * @param parentClosePolicy what happens to the child when the parent closes first
 */
public record ChildOptions(String workflowId, ParentClosePolicy parentClosePolicy) {

	/** Defaults: a deterministic random id, TERMINATE. */
	public static final ChildOptions DEFAULT = new ChildOptions(null, ParentClosePolicy.TERMINATE);

	public ChildOptions {
		parentClosePolicy = (parentClosePolicy != null) ? parentClosePolicy : ParentClosePolicy.TERMINATE;
	}

	public static ChildOptions withId(String workflowId) {
		return new ChildOptions(workflowId, ParentClosePolicy.TERMINATE);
	}

	public ChildOptions withParentClosePolicy(ParentClosePolicy policy) {
		return new ChildOptions(this.workflowId, policy);
	}

}
