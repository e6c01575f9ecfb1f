package dev.durable.workflow.internal.runtime;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.slf4j.MDC;

import dev.durable.workflow.internal.support.RunMdc;

/**
 * One workflow thread (the main method, an async body or a blocking handler) on a virtual
 * thread. Control passes between it and the scheduler by two semaphores, so exactly one
 * of them runs.
 */
final class Coroutine {

	private final String name;

	private final boolean handler;

	private final Runnable body;

	private final WorkflowRunner runner;

	private final Semaphore resume = new Semaphore(0);

	private final Semaphore yielded = new Semaphore(0);

	private final Deque<CancellationScopeImpl> scopes = new ArrayDeque<>();

	private Thread thread;

	private BooleanSupplier blockedOn;

	private volatile boolean done;

	private volatile boolean destroyRequested;

	Coroutine(String name, WorkflowRunner runner, CancellationScopeImpl scope, Runnable body, boolean handler) {
		this.name = name;
		this.handler = handler;
		this.runner = runner;
		this.body = body;
		this.scopes.push(scope);
	}

	String name() {
		return this.name;
	}

	/** Whether it runs a signal or update handler. */
	boolean isHandler() {
		return this.handler;
	}

	boolean isDone() {
		return this.done;
	}

	/**
	 * Where its code waits: the stack of its thread, parked in an await between tasks;
	 * empty before it started.
	 */
	StackTraceElement[] stack() {
		Thread current = this.thread;
		return (current != null) ? current.getStackTrace() : new StackTraceElement[0];
	}

	/** Whether the scheduler may run it now. */
	boolean isReady() {
		if (this.done) {
			return false;
		}
		return this.blockedOn == null || this.blockedOn.getAsBoolean();
	}

	CancellationScopeImpl currentScope() {
		return this.scopes.peek();
	}

	void pushScope(CancellationScopeImpl scope) {
		this.scopes.push(scope);
	}

	void popScope() {
		this.scopes.pop();
	}

	/**
	 * Runs this coroutine until it blocks or ends. Called by the scheduler thread.
	 * @return false when it did not yield within the timeout (it is then abandoned)
	 */
	boolean step(long timeoutMillis) throws InterruptedException {
		this.blockedOn = null;
		// an untimed wait, ended by the coroutine's yield or by the watchdog at the
		// deadline
		YieldWatchdog.watch(this, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
		try {
			if (this.thread == null) {
				this.thread = Thread.ofVirtual().name("workflow-" + this.name).unstarted(this::main);
				this.thread.start();
			}
			else {
				this.resume.release();
			}
			this.yielded.acquire();
		}
		catch (InterruptedException ex) {
			YieldWatchdog.unwatch(this);
			throw ex;
		}
		// false when the watchdog claimed the step: its permit may still come, so the
		// step counts as
		// timed out even when the coroutine yielded at that moment (the coroutine is
		// abandoned)
		return YieldWatchdog.unwatch(this);
	}

	/**
	 * The watchdog's end of a step that did not yield in time: wakes the waiting
	 * scheduler.
	 */
	void timedOut() {
		this.yielded.release();
	}

	/**
	 * Blocks the calling coroutine until the condition holds. Called on this coroutine's
	 * thread.
	 */
	void await(BooleanSupplier condition) {
		checkDestroyed();
		if (condition.getAsBoolean()) {
			return;
		}
		this.blockedOn = condition;
		this.yielded.release();
		this.resume.acquireUninterruptibly();
		checkDestroyed();
	}

	/** Ends the coroutine: its thread unwinds with {@link DestroyWorkflowThreadError}. */
	void destroy() {
		if (this.thread == null || this.done) {
			this.done = true;
			return;
		}
		this.destroyRequested = true;
		this.resume.release();
		try {
			this.yielded.tryAcquire(1, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Marks the coroutine for unwinding without waiting: used when it is stuck in user
	 * code.
	 */
	void requestDestroy() {
		this.destroyRequested = true;
		this.resume.release();
	}

	private void checkDestroyed() {
		if (this.destroyRequested) {
			throw new DestroyWorkflowThreadError();
		}
	}

	private void main() {
		WorkflowThread.bind(this.runner, this);
		// the workflow code's logs name its run (a thread of its own: nothing of the
		// caller's to keep)
		MDC.put(RunMdc.WORKFLOW_ID, this.runner.workflowId());
		MDC.put(RunMdc.RUN_ID, this.runner.runId().toString());
		MDC.put(RunMdc.WORKFLOW_TYPE, this.runner.identity().workflowType());
		try {
			this.body.run();
		}
		catch (DestroyWorkflowThreadError ex) {
			// unwound on purpose
		}
		catch (Throwable ex) {
			this.runner.coroutineFailed(this, ex);
		}
		finally {
			this.done = true;
			WorkflowThread.unbind();
			MDC.clear();
			this.yielded.release();
		}
	}

	/**
	 * Unwinds a destroyed workflow thread; an Error so that user code catching Exception
	 * does not stop it.
	 */
	static final class DestroyWorkflowThreadError extends Error {

		DestroyWorkflowThreadError() {
			super("workflow thread destroyed", null, false, false);
		}

	}

}
