package dev.durable.workflow.internal.support;

/** Short error descriptions for logs. */
public final class Errors {

	private Errors() {
	}

	/** The innermost cause's class and message: what the database or the code actually said. */
	public static String rootMessage(Throwable t) {
		Throwable root = t;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root.getClass().getSimpleName() + ": " + root.getMessage();
	}

}
