package dev.durable.workflow.support;

import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

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

	private final AtomicInteger commits = new AtomicInteger();

	/** Counted down when a commit is stalled. */
	public final CountDownLatch commitStalled = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	private final AtomicInteger holding = new AtomicInteger();

	@Override
	public void beforeTaskCommit(UUID runId) {
		int number = this.commits.incrementAndGet();
		if (number == this.failCommitNumber) {
			throw new IllegalStateException("connection lost during commit " + number);
		}
		if (this.stallCommits || number == this.stallCommitNumber) {
			awaitRelease(this.commitStalled);
		}
	}

	@Override
	public void beforeHeartbeat() {
		if (this.stallHeartbeats) {
			awaitRelease(null);
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

	/**
	 * Holds until released; counts the stall as held before telling the test (a test that
	 * was told checks {@link #holding()} at once).
	 */
	private void awaitRelease(@Nullable CountDownLatch stalled) {
		this.holding.incrementAndGet();
		if (stalled != null) {
			stalled.countDown();
		}
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
