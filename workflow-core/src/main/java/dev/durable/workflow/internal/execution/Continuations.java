package dev.durable.workflow.internal.execution;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the engine's next piece of work on the virtual thread that just made it possible,
 * instead of handing it to a new thread: a workflow task goes on to run the activity it
 * scheduled, and an activity goes on to run the task its outcome wakes. Each hand-off to
 * another thread wakes a carrier and costs CPU; a step of a sequential workflow needs
 * none this way.
 *
 * <p>
 * Work offered while a thread runs its current piece is queued on that thread and runs
 * after it, never nested (no recursion however long the workflow). Only one piece is
 * queued per thread: any more (parallel activities) start on threads of their own, so
 * they still run concurrently. Work is queued only inside engine code that ends its piece
 * soon ({@link #accepting}): never while an activity's own code runs, which may wait for
 * the very work it offers (an activity that starts a workflow and waits for its result).
 */
public final class Continuations {

	private static final Logger log = LoggerFactory.getLogger(Continuations.class);

	private static final ThreadLocal<Deque<Runnable>> NEXT = new ThreadLocal<>();

	/**
	 * Whether the thread's current piece is in engine code that may queue work
	 * ({@link #accepting}).
	 */
	private static final ThreadLocal<Boolean> ACCEPTING = new ThreadLocal<>();

	private Continuations() {
	}

	/**
	 * Runs the work after the current piece on this thread when it runs pieces, else on
	 * the executor.
	 */
	public static void runNextOr(Executor executor, Runnable work) {
		Deque<Runnable> next = NEXT.get();
		if (next != null && next.isEmpty() && ACCEPTING.get() != null) {
			next.add(work);
		}
		else {
			executor.execute(() -> run(work));
		}
	}

	/**
	 * Runs engine code during which work offered with {@link #runNextOr} may wait for
	 * this thread.
	 */
	public static void accepting(Runnable engineCode) {
		Boolean before = ACCEPTING.get();
		ACCEPTING.set(Boolean.TRUE);
		try {
			engineCode.run();
		}
		finally {
			if (before == null) {
				ACCEPTING.remove();
			}
		}
	}

	/** Runs the work and, after it, whatever it queued with {@link #runNextOr}. */
	static void run(Runnable first) {
		Deque<Runnable> next = new ArrayDeque<>(1);
		NEXT.set(next);
		try {
			for (Runnable work = first; work != null; work = next.poll()) {
				try {
					work.run();
				}
				catch (RuntimeException | Error ex) {
					log.error("Engine work failed", ex);
				}
			}
		}
		finally {
			NEXT.remove();
		}
	}

}
