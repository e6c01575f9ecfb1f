package dev.durable.workflow.start;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.start.EagerStartFixture.Waiter;
import dev.durable.workflow.support.BeforeStatement;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A start retried with the same request id while the first attempt's transaction is still
 * open (its node stalled, or cut off from the caller after it sent the insert): the
 * retry, on another node, cannot see the first run, waits on the unique index of open
 * runs, and once the first commits gets the same run, as a retry after the commit would.
 * A start with another request id still conflicts.
 */
class StartRetryRaceTest {

	private final Engines engines = new Engines();

	private final ExecutorService callers = Executors.newCachedThreadPool();

	@AfterEach
	void close() {
		this.callers.shutdownNow();
		this.engines.close();
	}

	private static StartOptions request(String requestId) {
		return StartOptions.builder().workflowId("order").requestId(requestId).build();
	}

	/**
	 * Whether a start's insert of a run waits for another transaction (the unique index).
	 */
	private boolean insertWaits() {
		return this.engines.jdbc()
			.queryForObject(
					"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
							+ " AND query LIKE 'INSERT INTO " + this.engines.schema + ".workflow_run%'",
					Integer.class) > 0;
	}

	/**
	 * Starts on a node whose start transaction stalls after it inserted the run (at its
	 * first task's commit), then the given start on a client-only node, which waits on
	 * the unique index; then the first transaction commits.
	 * @return the first start's handle and the second start's outcome
	 */
	private Future<WorkflowHandle<String>> raceWithStalledStart(StartOptions second, WorkflowHandle<?>[] first)
			throws Exception {
		StallingHooks hooks = new StallingHooks();
		hooks.stallCommitNumber = 1;
		WorkflowEngine stalled = this.engines.start(this.engines.builder().register(Waiter.class).hooks(hooks));
		WorkflowEngine retrying = this.engines.start(this.engines.builder().worker(false));
		Future<WorkflowHandle<String>> firstStart = this.callers
			.submit(() -> stalled.client().start(Waiter::run, "first", request("request-1")));
		assertThat(hooks.commitStalled.await(10, TimeUnit.SECONDS)).as("the first start holds its transaction")
			.isTrue();

		Future<WorkflowHandle<String>> secondStart = this.callers
			.submit(() -> retrying.client().start(Waiter::run, "second", second));
		await().until(this::insertWaits);
		hooks.release();
		first[0] = firstStart.get(10, TimeUnit.SECONDS);
		return secondStart;
	}

	private static <T> T get(Future<T> future) throws Exception {
		try {
			return future.get(10, TimeUnit.SECONDS);
		}
		catch (java.util.concurrent.ExecutionException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
	}

	@Test
	void aRetryWaitingOnTheFirstAttemptsInsertGetsTheSameRun() throws Exception {
		WorkflowHandle<?>[] first = new WorkflowHandle<?>[1];
		WorkflowHandle<String> retried = get(raceWithStalledStart(request("request-1"), first));
		assertThat(retried.runId()).isEqualTo(first[0].runId());
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
		retried.signal("go", "now");
		assertThat(retried.result(Duration.ofSeconds(10))).isEqualTo("first now");
	}

	@Test
	void aRetriedSignalWithStartWaitingOnTheFirstAttemptsInsertGetsTheSameRunSignaledOnce() throws Exception {
		// the first attempt's transaction stalls after it inserted the run, before its
		// signal
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		BeforeStatement stalling = new BeforeStatement(TestDatabase.dataSource(),
				"INSERT INTO " + this.engines.schema + ".inbox", () -> {
					held.countDown();
					try {
						release.await(10, TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				});
		this.engines.start(this.engines.builder().register(Waiter.class));
		WorkflowEngine stalled = this.engines
			.start(this.engines.builder().dataSource(stalling.dataSource()).worker(false));
		WorkflowEngine retrying = this.engines.start(this.engines.builder().worker(false));
		Future<WorkflowHandle<String>> firstStart = this.callers
			.submit(() -> stalled.client().signalWithStart(Waiter::run, "first", request("request-1"), "go", "now"));
		assertThat(held.await(10, TimeUnit.SECONDS)).as("the first attempt holds its transaction").isTrue();

		Future<WorkflowHandle<String>> secondStart = this.callers.submit(
				() -> retrying.client().signalWithStart(Waiter::run, "second", request("request-1"), "go", "again"));
		await().until(this::insertWaits);
		release.countDown();
		WorkflowHandle<String> first = get(firstStart);
		WorkflowHandle<String> retried = get(secondStart);
		assertThat(retried.runId()).isEqualTo(first.runId());
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
		assertThat(retried.result(Duration.ofSeconds(10))).isEqualTo("first now");
		assertThat(retried.history().stream().filter((event) -> event.type().contains("SIGNAL")).toList())
			.as("the retry's signal is the first's")
			.hasSize(1);
	}

	@Test
	void anotherRequestWaitingOnTheFirstInsertStillConflicts() throws Exception {
		WorkflowHandle<?>[] first = new WorkflowHandle<?>[1];
		Future<WorkflowHandle<String>> other = raceWithStalledStart(request("request-2"), first);
		assertThatThrownBy(() -> get(other)).isInstanceOf(WorkflowAlreadyStartedException.class)
			.satisfies((ex) -> assertThat(((WorkflowAlreadyStartedException) ex).getExistingRunId())
				.isEqualTo(first[0].runId()));
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
	}

}
