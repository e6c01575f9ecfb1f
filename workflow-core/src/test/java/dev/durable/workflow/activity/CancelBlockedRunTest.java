package dev.durable.workflow.activity;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.failure.CanceledFailure;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.EventCodec;
import dev.durable.workflow.internal.history.EventType;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A run whose cancellation was requested closes CANCELED when it ends because of it: the
 * {@code CanceledFailure}, or the {@code ActivityFailure} of the activity it was blocked
 * on, leaves its main method, or the main method returns after the request. The
 * {@code ActivityFailure} of a canceled activity counts the attempt that was running.
 * Another failure after the request (a cleanup that failed) still fails the run.
 */
class CancelBlockedRunTest {

	private final Engines engines = new Engines();

	@BeforeEach
	void reset() {
		Holds.reset();
	}

	@AfterEach
	void close() {
		Holds.release();
		this.engines.close();
	}

	/** Blocks until released; an interrupt (the cancel) ends it. */
	public static class Holds {

		static final AtomicInteger started = new AtomicInteger();

		static final AtomicInteger interrupted = new AtomicInteger();

		static final AtomicInteger cleanups = new AtomicInteger();

		static volatile CountDownLatch release = new CountDownLatch(1);

		static void reset() {
			started.set(0);
			interrupted.set(0);
			cleanups.set(0);
			release = new CountDownLatch(1);
		}

		static void release() {
			release.countDown();
		}

		static String hold(String input) {
			started.incrementAndGet();
			try {
				if (!release.await(60, TimeUnit.SECONDS)) {
					throw new IllegalStateException("never released");
				}
			}
			catch (InterruptedException ex) {
				interrupted.incrementAndGet();
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted");
			}
			return input;
		}

	}

	/** Runs inline, on the node that owns the run. */
	@Activity
	public static class Inline {

		public String hold(String input) {
			return Holds.hold(input);
		}

		public String cleanup(String why) {
			Holds.cleanups.incrementAndGet();
			return "cleaned after " + why;
		}

		@ActivityMethod(maxAttempts = 1)
		public String brokenCleanup(String why) {
			Holds.cleanups.incrementAndGet();
			throw ApplicationFailure.newNonRetryableFailure("cleanup broke after " + why, "CleanupFailed");
		}

	}

	/** Runs on the "remote" task queue, served by a worker-only node. */
	@Activity
	public interface Remote {

		@ActivityMethod(taskQueue = "remote")
		String hold(String input);

	}

	public static class RemoteImpl implements Remote {

		@Override
		public String hold(String input) {
			return Holds.hold(input);
		}

	}

	/**
	 * Blocks as its input says; remembers what the cancel threw at it (a query reads it).
	 */
	@Workflow("cancel-blocked")
	public static class BlockedWorkflow {

		private final Inline inline;

		private final Remote remote;

		private String seen = "nothing";

		public BlockedWorkflow(Inline inline, Remote remote) {
			this.inline = inline;
			this.remote = remote;
		}

		@WorkflowRun
		public String run(String mode) {
			try {
				switch (mode) {
					case "inline", "cleanup", "broken-cleanup" -> this.inline.hold(mode);
					case "queue" -> this.remote.hold(mode);
					case "timer", "catch-and-return" -> Workflows.sleep(Duration.ofDays(1));
					default -> throw new IllegalArgumentException(mode);
				}
				return "not canceled";
			}
			catch (ActivityFailure ex) {
				this.seen = "ActivityFailure after " + ex.getAttempt() + " attempt(s) <- "
						+ ex.getCause().getClass().getSimpleName() + ": " + ex.getCause().getMessage();
				if (mode.equals("cleanup")) {
					Workflows.newDetachedCancellationScope(() -> this.inline.cleanup("cancel")).run();
				}
				if (mode.equals("broken-cleanup")) {
					Workflows.newDetachedCancellationScope(() -> this.inline.brokenCleanup("cancel")).run();
				}
				throw ex;
			}
			catch (CanceledFailure ex) {
				this.seen = "CanceledFailure: " + ex.getMessage();
				if (mode.equals("catch-and-return")) {
					return "caught the cancel";
				}
				throw ex;
			}
		}

		@QueryMethod
		public String seen() {
			return this.seen;
		}

	}

	private WorkflowEngine engine() {
		return this.engines
			.start(this.engines.builder().register(BlockedWorkflow.class).registerActivities(new Inline()));
	}

	private void remoteWorker() {
		this.engines.start(this.engines.builder()
			.runWorkflows(false)
			.activityTaskQueues("remote")
			.registerActivities(new RemoteImpl()));
	}

	private static WorkflowHandle<String> start(WorkflowEngine engine, String mode) {
		return engine.client().start(BlockedWorkflow::run, mode, StartOptions.withId("blocked-" + mode));
	}

	/**
	 * The caller's result() throws WorkflowFailedException, status CANCELED, cause the
	 * reason's CanceledFailure.
	 */
	private static void assertCanceled(WorkflowHandle<String> handle, String reason) {
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(20))).isInstanceOf(WorkflowFailedException.class)
			.satisfies(
					(ex) -> assertThat(((WorkflowFailedException) ex).getStatus()).isEqualTo(WorkflowStatus.CANCELED))
			.cause()
			.isInstanceOf(CanceledFailure.class)
			.hasMessage(reason);
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.CANCELED);
		assertThat(lastEventType(handle)).isEqualTo("WORKFLOW_CANCELED");
	}

	private static String lastEventType(WorkflowHandle<String> handle) {
		List<HistoryEvent> history = handle.history();
		return history.get(history.size() - 1).type();
	}

	@Test
	void aRunBlockedOnAnInlineActivityClosesCanceledAndCountsTheRunningAttempt() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "inline");
		await().until(() -> Holds.started.get() == 1);

		handle.cancel("customer asked");

		assertCanceled(handle, "customer asked");
		// the commit that canceled the activity interrupts its running attempt
		await().until(() -> Holds.interrupted.get() == 1);
		// read by a replay of the closed run: the count was recorded with the cancel
		assertThat(handle.query(BlockedWorkflow::seen))
			.isEqualTo("ActivityFailure after 1 attempt(s) <- CanceledFailure: customer asked");
		assertThat(this.engines.count("activity")).isZero();
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aRunBlockedOnATaskQueueActivityClosesCanceledAndCountsTheClaimedAttempt() {
		WorkflowEngine engine = engine();
		remoteWorker();
		WorkflowHandle<String> handle = start(engine, "queue");
		await().until(() -> Holds.started.get() == 1);

		handle.cancel("no longer needed");

		assertCanceled(handle, "no longer needed");
		// the commit deleted the activity's row: the worker finds its attempt gone and
		// stops it
		await().until(() -> Holds.interrupted.get() == 1);
		assertThat(handle.query(BlockedWorkflow::seen))
			.isEqualTo("ActivityFailure after 1 attempt(s) <- CanceledFailure: no longer needed");
		assertThat(this.engines.count("activity")).isZero();
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aTaskQueueActivityNobodyClaimedYetCountsNoAttempt() {
		WorkflowEngine engine = engine(); // no node serves "remote"
		WorkflowHandle<String> handle = start(engine, "queue");
		await().until(() -> this.engines.count("activity") == 1);

		handle.cancel("changed my mind");

		assertCanceled(handle, "changed my mind");
		assertThat(handle.query(BlockedWorkflow::seen))
			.isEqualTo("ActivityFailure after 0 attempt(s) <- CanceledFailure: changed my mind");
		assertThat(Holds.started).hasValue(0);
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aRunBlockedOnATimerClosesCanceled() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "timer");
		await().until(() -> this.engines.count("timer") == 1);

		handle.cancel("stop waiting");

		assertCanceled(handle, "stop waiting");
		assertThat(handle.query(BlockedWorkflow::seen)).isEqualTo("CanceledFailure: stop waiting");
		assertThat(this.engines.count("timer")).isZero();
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aRunThatCatchesTheCancellationAndReturnsClosesCanceled() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "catch-and-return");
		await().until(() -> this.engines.count("timer") == 1);

		handle.cancel("please stop");

		// its return value is dropped: the cancellation is what ended it
		assertCanceled(handle, "please stop");
		assertThat(handle.query(BlockedWorkflow::seen)).isEqualTo("CanceledFailure: please stop");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aRunThatCleansUpInADetachedScopeAndRethrowsClosesCanceled() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "cleanup");
		await().until(() -> Holds.started.get() == 1);

		handle.cancel("shutting the shop");

		assertCanceled(handle, "shutting the shop");
		assertThat(Holds.cleanups).hasValue(1);
		assertThat(handle.history()).extracting(HistoryEvent::type)
			.containsSubsequence("CANCEL_REQUESTED", "ACTIVITY_CANCEL_REQUESTED", "ACTIVITY_SCHEDULED",
					"ACTIVITY_COMPLETED", "WORKFLOW_CANCELED");
		assertThat(handle.query(BlockedWorkflow::seen))
			.isEqualTo("ActivityFailure after 1 attempt(s) <- CanceledFailure: shutting the shop");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aCleanupThatFailsAfterTheCancelFailsTheRunWithItsFailure() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "broken-cleanup");
		await().until(() -> Holds.started.get() == 1);

		handle.cancel("shutting the shop");

		// not caused by the cancellation: the run fails, so that the broken cleanup shows
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(20))).isInstanceOf(WorkflowFailedException.class)
			.satisfies((ex) -> assertThat(((WorkflowFailedException) ex).getStatus()).isEqualTo(WorkflowStatus.FAILED))
			.cause()
			.isInstanceOf(ActivityFailure.class)
			.rootCause()
			.isInstanceOf(ApplicationFailure.class)
			.hasMessage("cleanup broke after cancel");
		assertThat(Holds.cleanups).hasValue(1);
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aRunThatClosedCompletedAfterItsCancelRequestUnderTheEarlierRuleStillReplays() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "catch-and-return");
		await().until(() -> this.engines.count("timer") == 1);
		handle.cancel("please stop");
		assertCanceled(handle, "please stop");

		// the history as an engine of before recorded it: the caught cancel returned,
		// COMPLETED
		rewriteClose(handle.runId(), Event.completed("\"caught the cancel\"".getBytes()));

		Engines.assertReplays(engine, handle.runId());
		assertThat(handle.query(BlockedWorkflow::seen)).isEqualTo("CanceledFailure: please stop");
	}

	/**
	 * Replaces the run's recorded close command, as another version of the engine would
	 * have written it.
	 */
	private void rewriteClose(UUID runId, Event close) {
		Map<String, Object> last = this.engines.jdbc()
			.queryForMap("SELECT seq, events FROM " + this.engines.schema
					+ ".history WHERE run_id = ? ORDER BY seq DESC LIMIT 1", runId);
		List<Event> events = new ArrayList<>(EventCodec.read((byte[]) last.get("events")));
		int at = events.size() - 1;
		assertThat(events.get(at).type()).isEqualTo(EventType.WORKFLOW_CANCELED);
		events.set(at, close);
		this.engines.jdbc()
			.update("UPDATE " + this.engines.schema + ".history SET events = ? WHERE run_id = ? AND seq = ?",
					EventCodec.write(events), runId, last.get("seq"));
	}

}
