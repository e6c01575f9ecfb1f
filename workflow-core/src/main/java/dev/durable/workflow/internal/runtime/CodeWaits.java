package dev.durable.workflow.internal.runtime;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.client.RunWait;

/**
 * The conditions a run's code waits on, read from the stacks of its parked coroutines (as
 * Temporal's stack-trace query reads its threads): a coroutine parked in
 * {@code Workflows.await} waits on a condition, at the first frame of the workflow's own
 * code. Read only when asked, so waiting costs nothing.
 */
final class CodeWaits {

	private static final String API_PACKAGE = "dev.durable.workflow";

	private static final String AWAIT_API = API_PACKAGE + ".Workflows";

	private CodeWaits() {
	}

	/** The condition waits of the coroutines' stacks. */
	static List<RunWait> conditions(List<Coroutine> coroutines) {
		List<RunWait> waits = new ArrayList<>();
		for (Coroutine coroutine : coroutines) {
			RunWait wait = condition(coroutine.stack());
			if (wait != null) {
				waits.add(wait);
			}
		}
		return waits;
	}

	/**
	 * The wait of one stack, innermost frame first: the workflow code's frame right below
	 * a {@code Workflows.await} frame, or {@code null} when it waits elsewhere (a timer,
	 * an activity, a receive, which the run's state tells).
	 */
	static @Nullable RunWait condition(StackTraceElement[] stack) {
		for (int i = 0; i < stack.length; i++) {
			StackTraceElement frame = stack[i];
			if (isEngine(frame.getClassName())) {
				continue;
			}
			// the first frame of the workflow's code: it waits on a condition when the
			// API it called was Workflows.await
			StackTraceElement called = (i > 0) ? stack[i - 1] : null;
			if (called == null || !AWAIT_API.equals(called.getClassName()) || !"await".equals(called.getMethodName())) {
				return null;
			}
			String method = simpleName(frame.getClassName()) + "." + frame.getMethodName();
			String location = method + "(" + frame.getFileName() + ":" + frame.getLineNumber() + ")";
			return new RunWait(RunWait.Kind.CONDITION, method, null, null, location, null);
		}
		return null;
	}

	/** The JDK, the engine, or the public API classes its code calls. */
	private static boolean isEngine(String className) {
		return className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.")
				|| className.startsWith(API_PACKAGE + ".internal.")
				|| (className.startsWith(API_PACKAGE + ".") && className.indexOf('.', API_PACKAGE.length() + 1) < 0);
	}

	private static String simpleName(String className) {
		String name = className.substring(className.lastIndexOf('.') + 1);
		return name.substring(name.lastIndexOf('$') + 1);
	}

}
