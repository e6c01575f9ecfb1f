package dev.durable.workflow;

/** What happens to a child run still open when its parent closes. */
public enum ParentClosePolicy {

	/** The child is terminated (the default). */
	TERMINATE,
	/** The child gets a cancel request and may clean up. */
	REQUEST_CANCEL,
	/** The child goes on alone. */
	ABANDON

}
