package dev.durable.workflow.support;

import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.durable.workflow.testsupport.EngineHooks;

/**
 * Stalls a node like a debugger breakpoint or a long GC pause would: commits and/or
 * heartbeats.
 */
public final class StallingHooks implements EngineHooks {

	public volatile boolean stallCommits;

	public volatile boolean stallHeartbeats;

	/**
	 * When positive, only the commit with this number (1-based, counted on this node)
	 * stalls.
	 */
	public volatile int stallCommitNumber;

	/** When positive, the commit with this number fails as if the connection dropped. */
	public volatile int failCommitNumber;

	private final java.util.concurrent.atomic.AtomicInteger commits = new java.util.concurrent.atomic.AtomicInteger();

	/** Counted down when a commit is stalled. */
	public final CountDownLatch commitStalled = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	private final java.util.concurrent.atomic.AtomicInteger holding = new java.util.concurrent.atomic.AtomicInteger();

	@Override
	public void beforeTaskCommit(UUID runId) {
		int number = this.commits.incrementAndGet();
		if (number == this.failCommitNumber) {
			throw new IllegalStateException("connection lost during commit " + number);
		}
		if (this.stallCommits || number == this.stallCommitNumber) {
			this.commitStalled.countDown();
			awaitRelease();
		}
	}

	@Override
	public void beforeHeartbeat() {
		if (this.stallHeartbeats) {
			awaitRelease();
		}
	}

	public void release() {
		this.stallCommits = false;
		this.stallHeartbeats = false;
		this.stallCommitNumber = 0;
		this.release.countDown();
	}

	/**
	 * Whether a stalled commit or heartbeat is being held right now (not yet released or
	 * timed out).
	 */
	public boolean holding() {
		return this.holding.get() > 0;
	}

	private void awaitRelease() {
		this.holding.incrementAndGet();
		try {
			this.release.await(60, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.holding.decrementAndGet();
		}
	}

}
