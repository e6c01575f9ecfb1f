package dev.durable.workflow.start;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UpdateHandle;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.internal.worker.ResultWaiters;
import dev.durable.workflow.start.EagerStartFixture.Chain;
import dev.durable.workflow.start.EagerStartFixture.Waiter;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.testsupport.EngineHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A result waited for on a node that does not hold the run (two engines on one database):
 * the waiter marks the run awaited, the close, committed on the other node, sends one
 * notification, and the waiter reads the outcome when it arrives. The waiters' own
 * re-read is set to an hour, so these tests pass only by notification (or by the sweep
 * the listener runs for lost ones).
 */
class RemoteResultNotificationTest {

	/**
	 * Far beyond every wait of these tests: a waiter that is not notified stays asleep.
	 */
	private static final Duration NO_RECHECK = Duration.ofHours(1);

	private static final Duration PROMPTLY = Duration.ofSeconds(10);

	private final Engines engines = new Engines();

	private final ExecutorService callers = Executors.newCachedThreadPool();

	@AfterEach
	void close() {
		this.callers.shutdownNow();
		this.engines.close();
	}

	// the workflows waiting for a "go" signal are EagerStartFixture's: Waiter ("fail"
	// fails the
	// run) and Chain (continues as new until round 3)

	/** Takes updates; an update "wait" completes only once the "release" signal came. */
	@Workflow(value = "remote-board", receives = { "end" })
	public static class Board {

		private boolean released;

		private int total;

		@WorkflowRun
		public int run() {
			Workflows.receive("end", String.class);
			return this.total;
		}

		@SignalMethod
		public void release() {
			this.released = true;
		}

		@UpdateMethod
		public int add(String how) {
			if ("wait".equals(how)) {
				Workflows.await(() -> this.released);
			}
			this.total++;
			return this.total;
		}

	}

	/** Holds the next task commit of the node until released. */
	static final class HoldingHooks implements EngineHooks {

		volatile boolean holdNext;

		final AtomicInteger commits = new AtomicInteger();

		final CountDownLatch held = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		@Override
		public void beforeTaskCommit(UUID runId) {
			this.commits.incrementAndGet();
			if (this.holdNext) {
				this.holdNext = false;
				this.held.countDown();
				try {
					this.release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

	private WorkflowEngine owner(EngineHooks hooks) {
		return this.engines.start(this.engines.builder().register(Waiter.class, Chain.class, Board.class).hooks(hooks));
	}

	/**
	 * A node that does not serve the types: a client-only one, or a worker of other
	 * types.
	 */
	private WorkflowEngine waiterNode(boolean worker) {
		WorkflowEngine engine = this.engines.start(this.engines.builder().worker(worker));
		waiters(engine).recheckResultsEvery(NO_RECHECK);
		return engine;
	}

	private static ResultWaiters waiters(WorkflowEngine engine) {
		return EngineInternals.node(engine).waiters();
	}

	private <T> Future<T> waitFor(WorkflowEngine node, WorkflowHandle<T> handle, Duration timeout) {
		int before = waiters(node).waiting();
		Future<T> result = this.callers.submit(() -> handle.result(timeout));
		await().atMost(PROMPTLY).until(() -> waiters(node).waiting() > before);
		return result;
	}

	private boolean awaited(UUID runId) {
		return Boolean.TRUE.equals(this.engines.jdbc()
			.queryForObject("SELECT result_awaited FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?",
					Boolean.class, runId));
	}

	private static <T> T get(Future<T> future) throws Exception {
		try {
			return future.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
		}
		catch (java.util.concurrent.ExecutionException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
	}

	@Test
	void aResultWaitedOnAClientOnlyNodeArrivesByNotification() throws Exception {
		WorkflowEngine owner = owner(EngineHooks.NONE);
		WorkflowEngine client = waiterNode(false);
		WorkflowHandle<String> handle = client.client().start(Waiter::run, "remote", StartOptions.withId("remote"));
		await().atMost(PROMPTLY).until(() -> EngineInternals.node(owner).holdsRun(handle.runId()));
		assertThat(awaited(handle.runId())).as("nobody waits yet: the close will notify no one").isFalse();

		Future<String> result = waitFor(client, handle, null);
		assertThat(awaited(handle.runId())).as("the waiter marked the run").isTrue();
		long signaled = System.nanoTime();
		handle.signal("go", "close");
		assertThat(get(result)).isEqualTo("remote close");
		System.out.printf("remote result %.1f ms after the signal%n", (System.nanoTime() - signaled) / 1e6);

		// a failure closed on the other node, waited for with a timeout
		WorkflowHandle<String> failing = client.client().start(Waiter::run, "remote", StartOptions.withId("remote-f"));
		await().atMost(PROMPTLY).until(() -> EngineInternals.node(owner).holdsRun(failing.runId()));
		Future<String> failed = waitFor(client, failing, Duration.ofMinutes(5));
		failing.signal("go", "fail");
		assertThatThrownBy(() -> get(failed)).isInstanceOf(WorkflowFailedException.class);
		Engines.assertReplays(owner, handle.runId());
		Engines.assertReplays(owner, failing.runId());
	}

	@Test
	void aResultWaitedOnAWorkerOfOtherTypesArrivesByNotification() throws Exception {
		WorkflowEngine owner = owner(EngineHooks.NONE);
		WorkflowEngine other = waiterNode(true);
		WorkflowHandle<String> handle = owner.client().start(Waiter::run, "worker", StartOptions.withId("worker"));
		Future<String> result = waitFor(other, other.client().handle("worker", String.class), null);
		handle.signal("go", "close");
		assertThat(get(result)).isEqualTo("worker close");
	}

	@Test
	void anUpdateOutcomeDecidedOnAnotherNodeArrivesByNotification() throws Exception {
		WorkflowEngine owner = owner(EngineHooks.NONE);
		WorkflowEngine client = waiterNode(false);
		WorkflowHandle<Integer> handle = client.client().start(Board::run, StartOptions.withId("board"));
		await().atMost(PROMPTLY).until(() -> EngineInternals.node(owner).holdsRun(handle.runId()));

		// sent and completed at once on the owner, waited for here
		Future<Integer> first = this.callers.submit(() -> handle.update(Board::add, "now"));
		assertThat(get(first)).isEqualTo(1);

		// accepted now, completed by a later task of the owner
		UpdateHandle<Integer> later = handle.startUpdate(Board::add, "wait",
				UpdateOptions.withId("later").waitFor(UpdateStage.ACCEPTED));
		Future<Integer> result = this.callers.submit(() -> later.result());
		await().atMost(PROMPTLY).until(() -> waiters(client).waiting() == 1);
		handle.signal(Board::release);
		assertThat(get(result)).isEqualTo(2);
		assertThat(awaited(handle.runId())).isTrue();
		Engines.assertReplays(owner, handle.runId());
	}

	@Test
	void aRunTerminatedOnAnotherNodeWakesItsWaitersByNotification() throws Exception {
		WorkflowEngine owner = owner(EngineHooks.NONE);
		WorkflowEngine client = waiterNode(false);
		WorkflowHandle<String> handle = client.client().start(Waiter::run, "ended", StartOptions.withId("ended"));
		await().atMost(PROMPTLY).until(() -> EngineInternals.node(owner).holdsRun(handle.runId()));
		Future<String> result = waitFor(client, handle, null);
		// closed without workflow code, in the terminating node's transaction: told after
		// its commit
		owner.client().handle("ended").terminate("enough");
		assertThatThrownBy(() -> get(result)).isInstanceOf(WorkflowFailedException.class)
			.satisfies((ex) -> assertThat(((WorkflowFailedException) ex).getStatus())
				.isEqualTo(WorkflowStatus.TERMINATED));
	}

	@Test
	void aWaiterFollowsAChainWhoseRunsCloseOnAnotherNode() throws Exception {
		WorkflowEngine owner = owner(EngineHooks.NONE);
		WorkflowEngine client = waiterNode(false);
		WorkflowHandle<String> handle = client.client().start(Chain::run, 1, StartOptions.withId("chain"));
		Future<String> result = waitFor(client, handle, null);
		UUID current = handle.runId();
		for (int round = 1; round <= 3; round++) {
			UUID run = current;
			await().atMost(PROMPTLY).until(() -> EngineInternals.node(owner).holdsRun(run) && awaited(run));
			client.client().handle("chain", String.class).signal("go", "g" + round);
			if (round < 3) {
				await().atMost(PROMPTLY).until(() -> !client.client().handle("chain").runId().equals(run));
				current = client.client().handle("chain").runId();
			}
		}
		assertThat(get(result)).isEqualTo("done 3 g3");
	}

	@Test
	void aWaiterWithATimeoutGivesUpAndALaterOneGetsTheResult() throws Exception {
		WorkflowEngine owner = owner(EngineHooks.NONE);
		WorkflowEngine client = waiterNode(false);
		WorkflowHandle<String> handle = client.client().start(Waiter::run, "late", StartOptions.withId("late"));
		await().atMost(PROMPTLY).until(() -> EngineInternals.node(owner).holdsRun(handle.runId()));
		assertThatThrownBy(() -> handle.result(Duration.ofMillis(300)))
			.isInstanceOf(WorkflowHandle.WorkflowTimeoutException.class);
		assertThat(waiters(client).waiting()).isZero();

		Future<String> result = waitFor(client, handle, Duration.ofMinutes(5));
		handle.signal("go", "at last");
		assertThat(get(result)).isEqualTo("late at last");
		// the run is closed: a waiter that comes now marks nothing and reads it at once
		assertThat(handle.result(Duration.ofMillis(1))).isEqualTo("late at last");
	}

	@Test
	void aLostNotificationIsMadeUpByTheListenersSweep() throws Exception {
		WorkflowEngine owner = owner(EngineHooks.NONE);
		WorkflowEngine client = waiterNode(false);
		// the owner's news of the close never leaves it (as when it dies right after the
		// commit)
		waiters(owner).sendNewsWith((runId) -> {
		}, (runId) -> {
		});
		WorkflowHandle<String> handle = client.client().start(Waiter::run, "lost", StartOptions.withId("lost"));
		await().atMost(PROMPTLY).until(() -> EngineInternals.node(owner).holdsRun(handle.runId()));
		Future<String> result = waitFor(client, handle, null);
		handle.signal("go", "close");
		await().atMost(PROMPTLY).until(() -> handle.describe().status() != WorkflowStatus.RUNNING);
		// no notification, no re-read: the waiter sleeps on
		await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> !result.isDone());

		// what the listener does when it reconnects and every 30 seconds
		waiters(client).closedElsewhere(null);
		assertThat(get(result)).isEqualTo("lost close");
	}

	@Test
	void aWaiterThatMarksTheRunWhileItClosesIsNotified() throws Exception {
		HoldingHooks hooks = new HoldingHooks();
		WorkflowEngine owner = owner(hooks);
		WorkflowEngine client = waiterNode(false);
		WorkflowHandle<String> handle = client.client().start(Waiter::run, "race", StartOptions.withId("race"));
		await().atMost(PROMPTLY).until(() -> EngineInternals.node(owner).holdsRun(handle.runId()));

		// the closing task has read the run (not awaited) and is about to commit
		hooks.holdNext = true;
		handle.signal("go", "close");
		assertThat(hooks.held.await(10, TimeUnit.SECONDS)).isTrue();
		int commitsBefore = hooks.commits.get();
		Future<String> result = waitFor(client, handle, null);
		assertThat(awaited(handle.runId())).isTrue();
		hooks.release.countDown();

		// the close finds the flag changed, runs its task again, and notifies with the
		// close
		assertThat(get(result)).isEqualTo("race close");
		assertThat(hooks.commits.get()).as("the stale close wrote nothing and was tried again")
			.isGreaterThan(commitsBefore);
		Engines.assertReplays(owner, handle.runId());
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".history WHERE run_id = ?", Integer.class,
					handle.runId()))
			.as("one first task, one close")
			.isEqualTo(2);
	}

}
