package dev.durable.workflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The delivery rules of signals without a handler (reference/postgres-signal-delivery.txt, DESIGN
 * 4.2): buffered, FIFO per name, idempotent with a key, rejected by closed runs, and no lost
 * wake-up between a send and the task that parks the run.
 */
@Timeout(120)
class SignalDeliveryTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Receives {@code count} signals named "item", in order. */
	@Workflow("sd-receiver")
	public static class Receiver {

		private final List<String> received = new ArrayList<>();

		@WorkflowRun
		public List<String> run(int count) {
			for (int i = 0; i < count; i++) {
				this.received.add(Workflows.receive("item", String.class));
			}
			return this.received;
		}

		@QueryMethod
		public List<String> received() {
			return this.received;
		}

	}

	/** Sleeps an hour before it asks for anything: every signal sent meanwhile must wait for it. */
	@Workflow("sd-late")
	public static class LateReceiver {

		@WorkflowRun
		public String run() {
			Workflows.sleep(Duration.ofHours(1));
			return Workflows.receive("item", String.class);
		}

	}

	/** Sleeps, then receives from two names in an order unrelated to the sending order. */
	@Workflow("sd-fifo")
	public static class FifoReceiver {

		@WorkflowRun
		public List<String> run() {
			Workflows.sleep(Duration.ofHours(1));
			List<String> taken = new ArrayList<>();
			taken.add(Workflows.receive("b", String.class));
			taken.add(Workflows.receive("a", String.class));
			taken.add(Workflows.receive("a", String.class));
			taken.add(Workflows.receive("a", String.class));
			taken.add(Workflows.receive("b", String.class));
			return taken;
		}

	}

	/** Completes, fails, or waits (to be canceled or terminated). */
	@Workflow("sd-terminal")
	public static class Terminal {

		@WorkflowRun
		public String run(String mode) {
			return switch (mode) {
				case "complete" -> "done";
				case "fail" -> throw ApplicationFailure.newNonRetryableFailure("failed on purpose", "Purpose");
				default -> Workflows.receive("never", String.class);
			};
		}

	}

	/** Waits at most ten minutes for a signal. */
	@Workflow("sd-timeout")
	public static class TimedReceiver {

		@WorkflowRun
		public String run() {
			Optional<String> value = Workflows.receive("item", String.class, Duration.ofMinutes(10));
			return value.map((v) -> "got " + v).orElse("timed out");
		}

	}

	/**
	 * The confirmation-deadline pattern: a signal raced against a timer. When the timer wins the
	 * signal promise is not consumed: a later "confirm" stays buffered for the next receive.
	 */
	@Workflow("sd-deadline")
	public static class Deadline {

		private Promise<String> confirm;

		private String outcome = "waiting";

		private boolean release;

		@WorkflowRun
		public String run() {
			this.confirm = Workflows.signalPromise("confirm", String.class);
			Promise<Void> deadline = Workflows.newTimer(Duration.ofHours(72));
			Promise.anyOf(this.confirm, deadline).get();
			if (this.confirm.isCompleted()) {
				this.outcome = "confirmed " + this.confirm.get();
			}
			else {
				this.outcome = "expired";
			}
			Workflows.await(() -> this.release);
			if (this.outcome.equals("expired")) {
				return "expired, then received " + Workflows.receive("confirm", String.class);
			}
			return this.outcome;
		}

		@SignalMethod
		public void release() {
			this.release = true;
		}

		@QueryMethod
		public String outcome() {
			return this.outcome;
		}

		/** Whether the losing signal promise sees a buffered signal (it must not have taken it). */
		@QueryMethod
		public boolean confirmReady() {
			return this.confirm != null && this.confirm.isCompleted();
		}

	}

	private WorkflowEngine worker() {
		return worker(this.engines.builder());
	}

	private WorkflowEngine worker(WorkflowEngine.Builder builder) {
		return this.engines.start(builder.register(Receiver.class, LateReceiver.class, FifoReceiver.class,
				Terminal.class, TimedReceiver.class, Deadline.class));
	}

	private WorkflowEngine clientOnly() {
		return this.engines.start(this.engines.builder().worker(false));
	}

	private static List<String> types(WorkflowHandle<?> handle) {
		return handle.history().stream().map(HistoryEvent::type).toList();
	}

	private static long count(WorkflowHandle<?> handle, String type) {
		return handle.history().stream().filter((e) -> e.type().equals(type)).count();
	}

	private int signalKeys() {
		return this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".dedup WHERE kind = 'SIGNAL'", Integer.class);
	}

	// ---- buffered ----------------------------------------------------------------------------

	@Test
	void aSignalSentBeforeTheWorkflowWaitsForItIsKeptEvenAcrossARestart() {
		WorkflowEngine first = worker();
		WorkflowHandle<String> handle = first.client().start(LateReceiver::run, StartOptions.withId("late"));
		await().until(() -> this.engines.count("timer") == 1);

		handle.signal("item", "early");
		// recorded in history while the workflow still sleeps, nothing waits for it yet
		await().until(() -> types(handle).contains("SIGNAL_RECEIVED"));
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(this.engines.count("inbox")).isZero();

		// the buffer is workflow state: rebuilt by replay on another node
		first.shutdown();
		WorkflowEngine second = worker();
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("early");
		assertThat(types(handle)).containsSubsequence("TIMER_STARTED", "SIGNAL_RECEIVED", "TIMER_FIRED",
				"WORKFLOW_COMPLETED");
		Engines.assertReplays(second, handle.runId());
	}

	// ---- FIFO per name -----------------------------------------------------------------------

	@Test
	void signalsOfOneNameAreTakenInOrderOnePerReceiveAndNamesAreIndependent() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = engine.client().start(FifoReceiver::run, StartOptions.withId("fifo"));
		await().until(() -> this.engines.count("timer") == 1);
		handle.signal("a", "a1");
		handle.signal("b", "b1");
		handle.signal("a", "a2");
		handle.signal("b", "b2");
		handle.signal("a", "a3");
		await().until(() -> count(handle, "SIGNAL_RECEIVED") == 5);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("b1", "a1", "a2", "a3", "b2");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void signalsArrivingOneByOneWhileTheWorkflowWaitsAreTakenInOrder() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = engine.client().start(Receiver::run, 3, StartOptions.withId("one-by-one"));
		await().until(() -> handle.describe().workflowTasks() == 1);
		handle.signal("item", "first");
		await().until(() -> handle.query(Receiver::received).size() == 1);
		handle.signal("item", "second");
		handle.signal("item", "third");
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("first", "second", "third");
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- idempotent with a key ---------------------------------------------------------------

	@Test
	void aRetriedSendWithTheSameKeyBuffersNothingEvenAfterTheFirstWasConsumed() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = engine.client().start(Receiver::run, 2, StartOptions.withId("keyed"));
		handle.signal("item", "a", "key-1");
		handle.signal("item", "a", "key-1"); // the sender retries before the first was consumed
		await().until(() -> handle.query(Receiver::received).equals(List.of("a")));
		handle.signal("item", "a", "key-1"); // and again after it was consumed
		assertThat(this.engines.count("inbox")).as("a duplicate writes nothing to the inbox").isZero();
		handle.signal("item", "b", "key-2");
		// a buffered duplicate would have been taken before "b"
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("a", "b");
		assertThat(count(handle, "SIGNAL_RECEIVED")).isEqualTo(2);
		assertThat(signalKeys()).isEqualTo(2);
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void keysAreScopedToTheWorkflowId() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> one = engine.client().start(Receiver::run, 1, StartOptions.withId("scope-1"));
		WorkflowHandle<List<String>> two = engine.client().start(Receiver::run, 1, StartOptions.withId("scope-2"));
		one.signal("item", "for one", "shared-key");
		two.signal("item", "for two", "shared-key");
		assertThat(one.result(Duration.ofSeconds(10))).containsExactly("for one");
		assertThat(two.result(Duration.ofSeconds(10))).containsExactly("for two");
		assertThat(signalKeys()).isEqualTo(2);
		Engines.assertReplays(engine, one.runId());
		Engines.assertReplays(engine, two.runId());
	}

	// ---- terminal runs reject signals --------------------------------------------------------

	@Test
	void closedRunsRejectSignalsAndNothingIsWritten() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> completed = engine.client()
			.start(Terminal::run, "complete", StartOptions.withId("closed-completed"));
		assertThat(completed.result(Duration.ofSeconds(10))).isEqualTo("done");

		WorkflowHandle<String> failed = engine.client().start(Terminal::run, "fail", StartOptions.withId("closed-failed"));
		assertThatThrownBy(() -> failed.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class);

		WorkflowHandle<String> canceled = engine.client()
			.start(Terminal::run, "wait", StartOptions.withId("closed-canceled"));
		await().until(() -> canceled.describe().workflowTasks() == 1);
		canceled.cancel("no longer needed");
		assertThatThrownBy(() -> canceled.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class);

		WorkflowHandle<String> terminated = engine.client()
			.start(Terminal::run, "wait", StartOptions.withId("closed-terminated"));
		await().until(() -> terminated.describe().workflowTasks() == 1);
		terminated.terminate("stop");

		List<WorkflowHandle<String>> closed = List.of(completed, failed, canceled, terminated);
		assertThat(closed).extracting((h) -> h.describe().status())
			.containsExactly(WorkflowStatus.COMPLETED, WorkflowStatus.FAILED, WorkflowStatus.CANCELED,
					WorkflowStatus.TERMINATED);
		WorkflowEngine client = clientOnly();
		for (WorkflowHandle<String> handle : closed) {
			int events = handle.history().size();
			long inboxSeq = this.engines.jdbc()
				.queryForObject("SELECT inbox_seq FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?",
						Long.class, handle.runId());
			assertThatThrownBy(() -> handle.signal("item", "too late")).isInstanceOf(WorkflowClosedException.class)
				.hasMessageContaining(handle.describe().status().name());
			assertThatThrownBy(() -> handle.signal("item", "too late", "late-key"))
				.isInstanceOf(WorkflowClosedException.class);
			// the same from a node that does not know the workflow type, by a handle on the workflow id
			assertThatThrownBy(() -> client.client().handle(handle.workflowId()).signal("item", "too late"))
				.isInstanceOf(WorkflowClosedException.class);
			assertThat(handle.history()).hasSize(events);
			assertThat(this.engines.jdbc()
				.queryForObject("SELECT inbox_seq FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?",
						Long.class, handle.runId()))
				.isEqualTo(inboxSeq);
		}
		assertThat(this.engines.count("inbox")).isZero();
		assertThat(signalKeys()).as("the key of a rejected signal is not kept").isZero();
		closed.forEach((h) -> Engines.assertReplays(engine, h.runId()));
	}

	// ---- parking races -----------------------------------------------------------------------

	@Test
	void aSignalSentWhileTheParkingTaskCommitsIsNotLost() throws Exception {
		StallingHooks hooks = new StallingHooks();
		hooks.stallCommitNumber = 1;
		WorkflowEngine engine = worker(this.engines.builder().hooks(hooks));
		WorkflowHandle<List<String>> handle = engine.client().start(Receiver::run, 1, StartOptions.withId("parking"));
		// the first task ran the code up to receive(): its commit, which parks the run, is held...
		assertThat(hooks.commitStalled.await(10, TimeUnit.SECONDS)).isTrue();
		// ...while the signal is stored
		handle.signal("item", "in the gap");
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
		// the worker polls once an hour: only the pending-input flag and the notification can save the signal
		WorkflowEngine engine = worker(this.engines.builder().hooks(hooks).pollInterval(Duration.ofHours(1)));
		WorkflowEngine client = clientOnly();
		WorkflowHandle<List<String>> handle = engine.client()
			.start(Receiver::run, 1, StartOptions.withId("parking-remote"));
		assertThat(hooks.commitStalled.await(10, TimeUnit.SECONDS)).isTrue();
		client.client().handle("parking-remote").signal("item", "from afar");
		hooks.release();
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("from afar");
		Engines.assertReplays(engine, handle.runId());
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
				WorkflowHandle<List<String>> handle = owner.client().start(Receiver::run, senders, StartOptions.withId(id));
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
					WorkflowHandle<List<String>> handle = starter.client().start(Receiver::run, 1, StartOptions.withId(id));
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
						+ " inbox " + this.engines.jdbc()
							.queryForList("SELECT id, kind, name FROM " + this.engines.schema + ".inbox WHERE run_id = ?",
									handle.runId()),
						ex);
			}
			assertThat(result).as(handle.workflowId()).hasSize(count).containsExactly("v" + i);
			Engines.assertReplays(engine, handle.runId());
		}
	}

	// ---- receive with a timeout --------------------------------------------------------------

	@Test
	void receiveWithATimeoutReturnsEmptyOnceTheTimeoutPassed() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client().start(TimedReceiver::run, StartOptions.withId("timed-out"));
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofMinutes(9));
		assertThatThrownBy(() -> handle.result(Duration.ofMillis(300)))
			.isInstanceOf(WorkflowHandle.WorkflowTimeoutException.class);
		this.engines.clock.advance(Duration.ofMinutes(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("timed out");
		assertThat(types(handle)).containsSubsequence("TIMER_STARTED", "TIMER_FIRED", "WORKFLOW_COMPLETED");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void receiveWithATimeoutReturnsTheSignalWhenItComesInTime() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client().start(TimedReceiver::run, StartOptions.withId("in-time"));
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofMinutes(5));
		handle.signal("item", "x");
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("got x");
		assertThat(types(handle)).containsSubsequence("TIMER_STARTED", "SIGNAL_RECEIVED", "TIMER_CANCELED",
				"WORKFLOW_COMPLETED");
		assertThat(types(handle)).doesNotContain("TIMER_FIRED");
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- confirmation deadline ---------------------------------------------------------------

	@Test
	void whenTheDeadlineWinsALaterConfirmationIsNotConsumedByTheLosingPromise() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client().start(Deadline::run, StartOptions.withId("deadline-expired"));
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofHours(72));
		await().until(() -> handle.query(Deadline::outcome).equals("expired"));
		assertThat(handle.query(Deadline::confirmReady)).isFalse();

		handle.signal("confirm", "late");
		await().until(() -> handle.query(Deadline::confirmReady));
		assertThat(handle.query(Deadline::outcome)).isEqualTo("expired");

		handle.signal(Deadline::release);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("expired, then received late");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void whenTheConfirmationWinsTheTimerIsIrrelevant() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client().start(Deadline::run, StartOptions.withId("deadline-confirmed"));
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofHours(1));
		handle.signal("confirm", "yes");
		await().until(() -> handle.query(Deadline::outcome).equals("confirmed yes"));
		// the deadline passes later: nothing changes
		this.engines.clock.advance(Duration.ofHours(72));
		await().until(() -> types(handle).contains("TIMER_FIRED") || this.engines.count("timer") == 0);
		assertThat(handle.query(Deadline::outcome)).isEqualTo("confirmed yes");
		handle.signal(Deadline::release);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("confirmed yes");
		Engines.assertReplays(engine, handle.runId());
	}

}
