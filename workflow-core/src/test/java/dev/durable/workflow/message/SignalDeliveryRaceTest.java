package dev.durable.workflow.message;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * No lost wake-up: a signal sent while the parking task commits, or right after the
 * start, is taken.
 */
@Timeout(120)
class SignalDeliveryRaceTest extends SignalDeliveryFixture {

	/**
	 * The task timeout of the workers whose commit a test holds: long enough that a
	 * loaded machine does not end the held task before the signal has been sent into the
	 * gap.
	 */
	private static final Duration HELD = Duration.ofSeconds(60);

	@Test
	void aSignalSentWhileTheParkingTaskCommitsIsNotLost() throws Exception {
		StallingHooks hooks = new StallingHooks();
		hooks.stallCommitNumber = 1;
		WorkflowEngine engine = worker(this.engines.builder().hooks(hooks).taskTimeout(HELD));
		// started from a node that does not work: a local start would run the first task,
		// and hold its
		// commit, inside start(), before the run exists for a signal to find
		WorkflowHandle<List<String>> handle = starter().client()
			.start(Receiver::run, 1, StartOptions.withId("parking"));
		// the worker's first task ran the code up to receive(): its commit, which parks
		// the run, is held...
		assertThat(hooks.commitStalled.await(10, TimeUnit.SECONDS)).isTrue();
		// ...while the signal is stored, on the node that runs the task
		engine.client().handle("parking").signal("item", "in the gap");
		assertThat(hooks.holding()).isTrue();
		hooks.release();
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("in the gap");
		List<HistoryEvent> history = handle.history();
		assertThat(history).filteredOn((e) -> e.type().equals("SIGNAL_RECEIVED"))
			.singleElement()
			.satisfies((e) -> assertThat(e.workflowTask()).isEqualTo(2));
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aSignalFromAnotherNodeSentWhileTheParkingTaskCommitsIsNotLost() throws Exception {
		StallingHooks hooks = new StallingHooks();
		hooks.stallCommitNumber = 1;
		// the worker polls once an hour: only the pending-input flag and the notification
		// can save the signal
		WorkflowEngine engine = worker(
				this.engines.builder().hooks(hooks).taskTimeout(HELD).pollInterval(Duration.ofHours(1)));
		WorkflowEngine client = starter();
		WorkflowHandle<List<String>> handle = client.client()
			.start(Receiver::run, 1, StartOptions.withId("parking-remote"));
		assertThat(hooks.commitStalled.await(10, TimeUnit.SECONDS)).isTrue();
		client.client().handle("parking-remote").signal("item", "from afar");
		assertThat(hooks.holding()).isTrue();
		hooks.release();
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("from afar");
		assertThat(handle.history()).filteredOn((e) -> e.type().equals("SIGNAL_RECEIVED"))
			.singleElement()
			.satisfies((e) -> assertThat(e.workflowTask()).isEqualTo(2));
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aSignalWhoseWakeUpIsLostWhileTheParkingTaskCommitsIsFoundByTheFallbackPoll() throws Exception {
		StallingHooks hooks = new StallingHooks();
		// the second task parks the run on its second receive(); the first one parked it
		// on its first
		hooks.stallCommitNumber = 2;
		// polls every half second, and a round of the interval leaves a run to its
		// running task: once the
		// commit is written, a round must find the run by what the database says of it
		WorkflowEngine engine = worker(
				this.engines.builder().hooks(hooks).taskTimeout(HELD).pollInterval(Duration.ofMillis(500)));
		WorkflowEngine client = starter();
		WorkflowHandle<List<String>> handle = client.client()
			.start(Receiver::run, 2, StartOptions.withId("parking-unheard"));
		// the first task parked the run on its first receive()
		await().until(() -> handle.describe().workflowTasks() == 1);
		client.client().handle("parking-unheard").signal("item", "heard");
		assertThat(hooks.commitStalled.await(10, TimeUnit.SECONDS)).isTrue();
		// the worker stops hearing notifications, so the next signal's wake-up is lost...
		dropListeners();
		client.client().handle("parking-unheard").signal("item", "unheard");
		assertThat(hooks.holding()).isTrue();
		// ...and the task that did not see it parks the run: the run must still be found
		// as having input
		hooks.release();
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("heard", "unheard");
		assertThat(handle.history()).filteredOn((e) -> e.type().equals("SIGNAL_RECEIVED"))
			.extracting(HistoryEvent::workflowTask)
			.containsExactly(2, 3);
		Engines.assertReplays(engine, handle.runId());
	}

	/**
	 * Ends the connections that listen for this test's wake-ups (they reconnect about a
	 * second later).
	 */
	private void dropListeners() {
		JdbcTemplate jdbc = this.engines.jdbc();
		List<Integer> listeners = jdbc.queryForList("SELECT pid FROM pg_stat_activity WHERE query = ?", Integer.class,
				"LISTEN durable_" + this.engines.schema);
		assertThat(listeners).isNotEmpty();
		listeners.forEach((pid) -> jdbc.queryForObject("SELECT pg_terminate_backend(?)", Boolean.class, pid));
		await().until(() -> jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(?)",
				Integer.class, (Object) listeners.toArray(Integer[]::new)) == 0);
	}

	/**
	 * A node that does not work and knows the receiver: its starts leave the first task
	 * to a worker.
	 */
	private WorkflowEngine starter() {
		return this.engines.start(this.engines.builder().worker(false).register(Receiver.class));
	}

	@Test
	void startThenSignalAtOnceNeverLeavesARunWaiting() {
		WorkflowEngine engine = worker();
		List<WorkflowHandle<List<String>>> handles = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			WorkflowHandle<List<String>> handle = engine.client()
				.start(Receiver::run, 1, StartOptions.withId("race-" + i));
			handle.signal("item", "v" + i);
			handles.add(handle);
		}
		assertAllReceived(engine, handles, 1);
	}

	@Test
	void startThenSignalFromASecondEngineNeverLeavesARunWaiting() {
		// the owner polls once an hour: each wake-up must come from the notification
		WorkflowEngine owner = worker(this.engines.builder().pollInterval(Duration.ofHours(1)));
		WorkflowEngine sender = clientOnly();
		List<WorkflowHandle<List<String>>> handles = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			WorkflowHandle<List<String>> handle = owner.client()
				.start(Receiver::run, 1, StartOptions.withId("remote-race-" + i));
			sender.client().handle("remote-race-" + i).signal("item", "v" + i);
			handles.add(handle);
		}
		assertAllReceived(owner, handles, 1);
	}

	@Test
	void startThenSignalFromSecondWorkerEngineWithNormalPollingNeverLeavesARunWaiting() {
		WorkflowEngine owner = worker();
		WorkflowEngine other = worker();
		List<WorkflowHandle<List<String>>> handles = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			WorkflowHandle<List<String>> handle = owner.client()
				.start(Receiver::run, 1, StartOptions.withId("worker-race-" + i));
			other.client().handle("worker-race-" + i).signal("item", "v" + i);
			handles.add(handle);
		}
		assertAllReceived(owner, handles, 1);
	}

	@Test
	void signalsFromSeveralThreadsAtOnceNeverLeaveARunWaiting() throws Exception {
		WorkflowEngine owner = worker();
		WorkflowEngine other = clientOnly();
		int runs = 25;
		int senders = 4;
		ExecutorService threads = Executors.newFixedThreadPool(senders);
		try {
			List<WorkflowHandle<List<String>>> handles = new ArrayList<>();
			for (int i = 0; i < runs; i++) {
				String id = "concurrent-" + i;
				WorkflowHandle<List<String>> handle = owner.client()
					.start(Receiver::run, senders, StartOptions.withId(id));
				handles.add(handle);
				CyclicBarrier barrier = new CyclicBarrier(senders);
				List<CompletableFuture<Void>> sends = new ArrayList<>();
				for (int s = 0; s < senders; s++) {
					WorkflowEngine via = (s % 2 == 0) ? owner : other;
					String value = id + "/" + s;
					sends.add(CompletableFuture.runAsync(() -> {
						try {
							barrier.await(10, TimeUnit.SECONDS);
						}
						catch (Exception ex) {
							throw new IllegalStateException(ex);
						}
						via.client().handle(id).signal("item", value);
					}, threads));
				}
				CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
			}
			for (int i = 0; i < runs; i++) {
				String id = "concurrent-" + i;
				assertThat(handles.get(i).result(Duration.ofSeconds(10))).as(id)
					.containsExactlyInAnyOrder(id + "/0", id + "/1", id + "/2", id + "/3");
				Engines.assertReplays(owner, handles.get(i).runId());
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void startAndSignalFromSeveralThreadsAtOnceNeverLeavesARunWaiting() throws Exception {
		WorkflowEngine owner = worker();
		WorkflowEngine other = worker();
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<CompletableFuture<WorkflowHandle<List<String>>>> started = new ArrayList<>();
			for (int i = 0; i < 100; i++) {
				String id = "threads-" + i;
				WorkflowEngine starter = (i % 2 == 0) ? owner : other;
				WorkflowEngine sender = (i % 3 == 0) ? owner : other;
				started.add(CompletableFuture.supplyAsync(() -> {
					WorkflowHandle<List<String>> handle = starter.client()
						.start(Receiver::run, 1, StartOptions.withId(id));
					sender.client().handle(id).signal("item", id);
					return handle;
				}, threads));
			}
			List<WorkflowHandle<List<String>>> handles = new ArrayList<>();
			for (CompletableFuture<WorkflowHandle<List<String>>> future : started) {
				handles.add(future.get(20, TimeUnit.SECONDS));
			}
			for (WorkflowHandle<List<String>> handle : handles) {
				assertThat(handle.result(Duration.ofSeconds(10))).as(handle.workflowId())
					.containsExactly(handle.workflowId());
				Engines.assertReplays(owner, handle.runId());
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	private void assertAllReceived(WorkflowEngine engine, List<WorkflowHandle<List<String>>> handles, int count) {
		for (int i = 0; i < handles.size(); i++) {
			WorkflowHandle<List<String>> handle = handles.get(i);
			List<String> result;
			try {
				result = handle.result(Duration.ofSeconds(10));
			}
			catch (WorkflowHandle.WorkflowTimeoutException ex) {
				throw new AssertionError(handle.workflowId() + " waits forever: " + handle.describe() + " "
						+ this.engines.jdbc()
							.queryForList("SELECT * FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?",
									handle.runId())
						+ " inbox "
						+ this.engines.jdbc()
							.queryForList(
									"SELECT id, kind, name FROM " + this.engines.schema + ".inbox WHERE run_id = ?",
									handle.runId()),
						ex);
			}
			assertThat(result).as(handle.workflowId()).hasSize(count).containsExactly("v" + i);
			Engines.assertReplays(engine, handle.runId());
		}
	}

}
