package dev.durable.workflow.internal.support;

/** Short error descriptions for logs. */
public final class Errors {

	private Errors() {
	}

	/**
	 * Whether the failure is the engine's own refusal to reach the database while the
	 * node is fenced (see {@link NodeFencedException}): expected then, and not worth a
	 * warning each round.
	 */
	public static boolean fenced(Throwable t) {
		int depth = 0;
		for (Throwable cause = t; cause != null && depth < 20; cause = cause.getCause(), depth++) {
			if (cause instanceof NodeFencedException) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The innermost cause's class and message: what the database or the code actually
	 * said.
	 */
	public static String rootMessage(Throwable t) {
		Throwable root = t;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root.getClass().getSimpleName() + ": " + root.getMessage();
	}

}
