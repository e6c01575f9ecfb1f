package dev.durable.workflow.internal.support;

import org.jspecify.annotations.Nullable;

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
		return cause(t, NodeFencedException.class) != null;
	}

	/**
	 * The failure itself or the first of its causes of the given type, or {@code null} (a
	 * chain of more than 20 is not followed further).
	 */
	public static <T extends Throwable> @Nullable T cause(Throwable t, Class<T> type) {
		int depth = 0;
		for (Throwable cause = t; cause != null && depth < 20; cause = cause.getCause(), depth++) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		return null;
	}

	/** The innermost cause: what the database or the code actually said. */
	public static Throwable root(Throwable t) {
		Throwable root = t;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root;
	}

	/**
	 * The innermost cause's class and message: what the database or the code actually
	 * said.
	 */
	public static String rootMessage(Throwable t) {
		Throwable root = root(t);
		return root.getClass().getSimpleName() + ": " + root.getMessage();
	}

}
