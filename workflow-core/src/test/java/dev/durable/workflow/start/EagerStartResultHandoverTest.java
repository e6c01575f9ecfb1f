package dev.durable.workflow.start;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StatementRecorder;
import dev.durable.workflow.support.TestDatabase;
import dev.durable.workflow.testsupport.EngineHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A result waited for in this JVM: handed over by the node that closed the run, else read
 * from the database.
 */
class EagerStartResultHandoverTest extends EagerStartFixture {

	/**
	 * Calls the result on a thread of its own, so that what that thread reads can be told
	 * apart.
	 */
	private <T> Waiting<T> waitOn(Callable<T> result) throws Exception {
		CountDownLatch begun = new CountDownLatch(1);
		Thread[] thread = new Thread[1];
		Future<T> future = this.waiters.submit(() -> {
			thread[0] = Thread.currentThread();
			begun.countDown();
			return result.call();
		});
		assertThat(begun.await(10, TimeUnit.SECONDS)).isTrue();
		return new Waiting<>(thread[0], future);
	}

	private record Waiting<T>(Thread thread, Future<T> future) {

		T get() throws Exception {
			try {
				return this.future.get(30, TimeUnit.SECONDS);
			}
			catch (java.util.concurrent.ExecutionException ex) {
				if (ex.getCause() instanceof Exception cause) {
					throw cause;
				}
				throw ex;
			}
		}

	}

	/**
	 * Waits until one caller waits for a result, looking often: a waiter re-reads on its
	 * own every half second, and what it read before its first pause is what the handover
	 * tests look at.
	 */
	private static void awaitParked(WorkflowEngine engine) {
		await().pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(2))
			.until(() -> EngineInternals.node(engine).waiters().waiting() == 1);
	}

	/**
	 * The statements the thread prepared after the run's close was written (the closing
	 * commit).
	 */
	private static List<StatementRecorder.Statement> readAfterClose(StatementRecorder recorder, Thread thread) {
		long closedAt = recorder.all()
			.stream()
			.filter((s) -> s.sql().contains("run_payload SET result"))
			.mapToLong(StatementRecorder.Statement::seq)
			.max()
			.orElseThrow();
		return recorder.of(thread).stream().filter((s) -> s.seq() > closedAt).toList();
	}

	/**
	 * A worker on the recording data source, once its wake-up listener has connected:
	 * when it connects it wakes every result waiter to read (what was sent before it
	 * listened is lost), which would be a read the handover tests do not expect if it
	 * came after their waiter parked.
	 */
	private WorkflowEngine recordedWorker(StatementRecorder recorder) {
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.dataSource(recorder.dataSource())
			// the statements counted are the engine's own: no once-per-connection session
			// settings among them
			.idleInTransactionTimeout(Duration.ZERO)
			.register(Waiter.class, Chain.class)
			.registerActivities(new Steps()));
		await().until(() -> recorder.all().stream().anyMatch((s) -> s.thread().getName().equals("durable-listen")));
		return engine;
	}

	@Test
	void aResultWaitedOnTheOwningNodeIsHandedOverWithoutADatabaseRead() throws Exception {
		StatementRecorder recorder = new StatementRecorder(TestDatabase.dataSource());
		WorkflowEngine engine = recordedWorker(recorder);
		WorkflowHandle<String> handle = engine.client().start(Waiter::run, "handed", StartOptions.withId("handover"));
		assertThat(EngineInternals.node(engine).holdsRun(handle.runId())).isTrue();

		Waiting<String> waiting = waitOn(() -> handle.result(Duration.ofSeconds(30)));
		awaitParked(engine);
		// the run is held here: its waiter does not read it before it closes
		assertThat(recorder.of(waiting.thread())).isEmpty();
		handle.signal("go", "over");
		assertThat(waiting.get()).isEqualTo("handed over");
		// the close handed the outcome over: nothing read back after it
		assertThat(readAfterClose(recorder, waiting.thread())).isEmpty();
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aFailureIsHandedOverAsWorkflowFailedExceptionWithItsCause() throws Exception {
		StatementRecorder recorder = new StatementRecorder(TestDatabase.dataSource());
		WorkflowEngine engine = recordedWorker(recorder);
		WorkflowHandle<String> handle = engine.client()
			.start(Waiter::run, "failing", StartOptions.withId("failed-over"));
		Waiting<String> waiting = waitOn(() -> handle.result(Duration.ofSeconds(30)));
		awaitParked(engine);
		assertThat(recorder.of(waiting.thread())).isEmpty();
		handle.signal("go", "fail");

		assertThatThrownBy(waiting::get).isInstanceOf(WorkflowFailedException.class).satisfies((ex) -> {
			WorkflowFailedException failed = (WorkflowFailedException) ex;
			assertThat(failed.getStatus()).isEqualTo(WorkflowStatus.FAILED);
			assertThat(failed.getRunId()).isEqualTo(handle.runId());
			assertThat(failed.getCause()).isInstanceOf(ApplicationFailure.class)
				.hasMessageContaining("gave up on failing");
			assertThat(((ApplicationFailure) failed.getCause()).getType()).isEqualTo("GaveUp");
		});
		assertThat(readAfterClose(recorder, waiting.thread())).isEmpty();
		// read back from the database, the same
		assertThatThrownBy(() -> engine.client().handle("failed-over").result(Duration.ofSeconds(10)))
			.isInstanceOf(WorkflowFailedException.class)
			.satisfies((ex) -> assertThat(((ApplicationFailure) ex.getCause()).getType()).isEqualTo("GaveUp"));
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aResultWaitedOnTheOwningNodeFollowsAContinueAsNewChain() throws Exception {
		WorkflowEngine engine = worker(EngineHooks.NONE);
		WorkflowHandle<String> handle = engine.client().start(Chain::run, 1, StartOptions.withId("chain"));
		Waiting<String> waiting = waitOn(() -> handle.result(Duration.ofSeconds(30)));
		await().until(() -> EngineInternals.node(engine).waiters().waiting() == 1);
		List<UUID> runs = new ArrayList<>(List.of(handle.runId()));
		for (int round = 1; round <= 3; round++) {
			UUID current = runs.get(runs.size() - 1);
			engine.client().handle("chain").signal("go", "g" + round);
			if (round < 3) {
				await().until(() -> !engine.client().handle("chain").runId().equals(current));
				UUID next = engine.client().handle("chain").runId();
				runs.add(next);
				await().until(() -> EngineInternals.node(engine).holdsRun(next));
			}
		}
		assertThat(waiting.get()).isEqualTo("done 3 g3");
		assertThat(runs).hasSize(3).doesNotHaveDuplicates();
		for (UUID run : runs) {
			Engines.assertReplays(engine, run);
		}
	}

	@Test
	void aResultWaitedOnAnotherNodeIsReadFromTheDatabase() throws Exception {
		WorkflowEngine worker = worker(EngineHooks.NONE);
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false));
		WorkflowHandle<String> handle = client.client().start(Waiter::run, "remote", StartOptions.withId("remote"));
		await().until(() -> EngineInternals.node(worker).holdsRun(handle.runId()));
		assertThat(EngineInternals.node(client).holdsRun(handle.runId())).isFalse();

		Waiting<String> waiting = waitOn(() -> handle.result(Duration.ofSeconds(30)));
		await().until(() -> EngineInternals.node(client).waiters().waiting() == 1);
		handle.signal("go", "close");
		assertThat(waiting.get()).isEqualTo("remote close");

		// and a failure closed on another node
		WorkflowHandle<String> failing = client.client().start(Waiter::run, "remote", StartOptions.withId("remote-f"));
		Waiting<String> failed = waitOn(() -> failing.result(Duration.ofSeconds(30)));
		await().until(() -> EngineInternals.node(client).waiters().waiting() == 1);
		failing.signal("go", "fail");
		assertThatThrownBy(failed::get).isInstanceOf(WorkflowFailedException.class)
			.satisfies((ex) -> assertThat(((ApplicationFailure) ex.getCause()).getType()).isEqualTo("GaveUp"));
		Engines.assertReplays(worker, handle.runId());
		Engines.assertReplays(worker, failing.runId());
	}

	@Test
	void aResultWaitedOnTheOwningNodeStillTimesOut() {
		WorkflowEngine engine = worker(EngineHooks.NONE);
		WorkflowHandle<String> handle = engine.client().start(Waiter::run, "slow", StartOptions.withId("slow"));
		assertThat(EngineInternals.node(engine).holdsRun(handle.runId())).isTrue();
		assertThatThrownBy(() -> handle.result(Duration.ofMillis(1)))
			.isInstanceOf(WorkflowHandle.WorkflowTimeoutException.class);
		handle.signal("go", "late");
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("slow late");
		Engines.assertReplays(engine, handle.runId());
	}

}
