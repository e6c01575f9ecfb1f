package dev.durable.workflow.message;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowInit;
import dev.durable.workflow.WorkflowLock;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.payload.EncodedValue;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * How a run handles messages (DESIGN 4.2, reference/signals-queries-updates.txt):
 * signal-with-start, the order of handlers and the main method within an activation,
 * blocking handlers and their lock, draining handlers, failures thrown by signal
 * handlers, dynamic handlers, and signals from another node.
 */
@Timeout(120)
class MessageHandlingTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/**
	 * Records what the main method saw when it first ran, and waits for more greetings.
	 */
	@Workflow("mh-greeter")
	public static class Greeter {

		private final List<String> greetings = new ArrayList<>();

		@WorkflowRun
		public String run(int expected) {
			List<String> seenAtStart = List.copyOf(this.greetings);
			Workflows.await(() -> this.greetings.size() >= expected);
			return "at start " + seenAtStart + ", in the end " + this.greetings;
		}

		@SignalMethod
		public void greet(String name) {
			this.greetings.add(name);
		}

	}

	/** Logs the handlers and the main method in the order they run. */
	@Workflow("mh-ordered")
	public static class Ordered {

		private final List<String> log = new ArrayList<>();

		private int notes;

		private boolean done;

		@WorkflowRun
		public List<String> run() {
			this.log.add("main started");
			Workflows.await(() -> this.notes > 0);
			this.log.add("main resumed after " + this.notes + " notes");
			Workflows.await(() -> this.done);
			return this.log;
		}

		@SignalMethod
		public void note(String text) {
			this.notes++;
			this.log.add(text);
		}

		@SignalMethod
		public void finish() {
			this.done = true;
		}

		@QueryMethod
		public List<String> log() {
			return this.log;
		}

	}

	/**
	 * A blocking read-modify-write in a signal handler, with or without the workflow
	 * lock.
	 */
	@Workflow("mh-interleave")
	public static class Interleaving {

		private final List<String> log = new ArrayList<>();

		private WorkflowLock lock;

		private boolean useLock;

		private int value;

		private int finished;

		@WorkflowInit
		public void init(boolean useLock) {
			this.useLock = useLock;
			this.lock = Workflows.newLock();
		}

		@WorkflowRun
		public List<String> run(boolean useLock) {
			Workflows.await(() -> this.finished == 2);
			this.log.add("value " + this.value);
			return this.log;
		}

		@SignalMethod
		public void increment(String who) {
			if (this.useLock) {
				this.lock.lock();
			}
			try {
				int read = this.value;
				this.log.add(who + " read " + read);
				Workflows.sleep(Duration.ofMinutes(1));
				this.value = read + 1;
				this.log.add(who + " wrote " + this.value);
				this.finished++;
			}
			finally {
				if (this.useLock) {
					this.lock.unlock();
				}
			}
		}

		@QueryMethod
		public List<String> log() {
			return this.log;
		}

	}

	/** A blocking handler; the main method waits for it to finish, or not. */
	@Workflow("mh-drain")
	public static class Drain {

		private final List<String> log = new ArrayList<>();

		private boolean done;

		@WorkflowRun
		public List<String> run(boolean drain) {
			Workflows.await(() -> this.done);
			if (drain) {
				Workflows.await(Workflows::allHandlersFinished);
			}
			this.log.add("returned, all handlers finished: " + Workflows.allHandlersFinished());
			return this.log;
		}

		@SignalMethod
		public void slowWork(String what) {
			Workflows.sleep(Duration.ofHours(1));
			this.log.add(what + " done");
		}

		@SignalMethod
		public void finish() {
			this.done = true;
		}

		@QueryMethod
		public boolean handlersFinished() {
			return Workflows.allHandlersFinished();
		}

	}

	/** Signal handlers that throw. */
	@Workflow("mh-strict")
	public static class Strict {

		static volatile boolean fixed;

		private final List<String> accepted = new ArrayList<>();

		@WorkflowRun
		public List<String> run() {
			Workflows.await(() -> this.accepted.size() == 2);
			return this.accepted;
		}

		@SignalMethod
		public void reject(String why) {
			throw ApplicationFailure.newNonRetryableFailure(why, "Rejected");
		}

		@SignalMethod
		public void buggy(String value) {
			if (!fixed) {
				Object missing = null;
				missing.toString();
			}
			this.accepted.add(value);
		}

	}

	/** Named handlers next to dynamic ones. */
	@Workflow("mh-dynamic")
	public static class Dynamic {

		private final List<String> seen = new ArrayList<>();

		private boolean done;

		@WorkflowRun
		public List<String> run() {
			Workflows.await(() -> this.done);
			return this.seen;
		}

		@SignalMethod
		public void known(String value) {
			this.seen.add("known " + value);
		}

		@SignalMethod(dynamic = true)
		public void anySignal(String name, EncodedValue payload) {
			this.seen.add("signal " + name + " " + payload.get(String.class));
			if (name.equals("stop")) {
				this.done = true;
			}
		}

		@QueryMethod
		public int count() {
			return this.seen.size();
		}

		@QueryMethod(dynamic = true)
		public String anyQuery(String name, EncodedValue argument) {
			return "query " + name + " " + argument.get(String.class) + " after " + this.seen.size();
		}

		@UpdateMethod
		public String named(String value) {
			this.seen.add("named update " + value);
			return "named " + value;
		}

		@UpdateMethod(dynamic = true)
		public String anyUpdate(String name, EncodedValue argument) {
			this.seen.add("update " + name + " " + argument.get(String.class));
			return "updated " + name;
		}

	}

	private WorkflowEngine worker() {
		return worker(this.engines.builder());
	}

	private WorkflowEngine worker(WorkflowEngine.Builder builder) {
		return this.engines.start(builder.register(Greeter.class, Ordered.class, Interleaving.class, Drain.class,
				Strict.class, Dynamic.class));
	}

	private static List<String> types(WorkflowHandle<?> handle) {
		return handle.history().stream().map(HistoryEvent::type).toList();
	}

	// ---- signal-with-start
	// -------------------------------------------------------------------

	@Test
	void signalWithStartRunsTheHandlerBeforeTheMainMethodAndSignalsAnOpenRun() {
		WorkflowEngine engine = worker();
		StartOptions options = StartOptions.withId("greeter");
		WorkflowHandle<String> first = engine.client().signalWithStart(Greeter::run, 2, options, "greet", "ann");
		await().until(() -> first.describe().workflowTasks() == 1);
		// the signal entered history with the start, in the first task
		assertThat(first.history()).extracting(HistoryEvent::type)
			.containsExactly("WORKFLOW_STARTED", "SIGNAL_RECEIVED");

		// the run is open: signal-with-start signals it and starts nothing
		WorkflowHandle<String> second = engine.client().signalWithStart(Greeter::run, 2, options, "greet", "bob");
		assertThat(second.runId()).isEqualTo(first.runId());
		assertThat(first.result(Duration.ofSeconds(10))).isEqualTo("at start [ann], in the end [ann, bob]");
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
		Engines.assertReplays(engine, first.runId());
	}

	@Test
	void signalWithStartFromANodeThatDoesNotServeTheType() {
		WorkflowEngine engine = worker();
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false));
		WorkflowHandle<Object> handle = client.client()
			.signalWithStart("mh-greeter", 1, StartOptions.withId("greeter-remote"), "greet", "cid");
		await().atMost(Duration.ofSeconds(10)).until(() -> handle.describe().status().isClosed());
		assertThat(handle.result(String.class)).isEqualTo("at start [cid], in the end [cid]");
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- order within an activation
	// ----------------------------------------------------------

	@Test
	void signalsOfOneActivationAreHandledInOrderBeforeTheMainMethodResumes() throws Exception {
		StallingHooks hooks = new StallingHooks();
		hooks.stallCommitNumber = 1;
		WorkflowEngine engine = worker(this.engines.builder().hooks(hooks));
		// started from a client-only node, so that the first task is the worker's own
		// (not run
		// eagerly in the start's transaction)
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false));
		client.client().start(Ordered::run, StartOptions.withId("ordered"));
		@SuppressWarnings({ "unchecked", "rawtypes" })
		WorkflowHandle<List<String>> handle = (WorkflowHandle) engine.client().handle("ordered", List.class);
		// the first task is held at its commit while three signals arrive: the next task
		// gets them all
		assertThat(hooks.commitStalled.await(10, TimeUnit.SECONDS)).isTrue();
		handle.signal(Ordered::note, "a");
		handle.signal(Ordered::note, "b");
		handle.signal(Ordered::note, "c");
		hooks.release();
		await().until(() -> handle.query(Ordered::log).size() == 5);
		handle.signal(Ordered::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("main started", "a", "b", "c",
				"main resumed after 3 notes");
		List<HistoryEvent> signals = handle.history()
			.stream()
			.filter((e) -> e.type().equals("SIGNAL_RECEIVED"))
			.toList();
		assertThat(signals).extracting((e) -> e.attributes().get("payload")).containsExactly("a", "b", "c", null);
		assertThat(signals.subList(0, 3)).extracting(HistoryEvent::workflowTask).containsOnly(2);
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- blocking handlers
	// -------------------------------------------------------------------

	@Test
	void blockingHandlersInterleaveAtEngineCalls() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = engine.client()
			.start(Interleaving::run, false, StartOptions.withId("interleave"));
		handle.signal(Interleaving::increment, "A");
		handle.signal(Interleaving::increment, "B");
		await().until(() -> this.engines.count("timer") == 2);
		assertThat(handle.query(Interleaving::log)).containsExactly("A read 0", "B read 0");
		this.engines.clock.advance(Duration.ofMinutes(1));
		List<String> log = handle.result(Duration.ofSeconds(10));
		// both read before either wrote: a lost update, because they switched at the
		// sleep
		assertThat(log).hasSize(5).startsWith("A read 0", "B read 0").endsWith("value 1");
		assertThat(log.subList(2, 4)).containsExactlyInAnyOrder("A wrote 1", "B wrote 1");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void theWorkflowLockSerializesBlockingHandlers() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = engine.client()
			.start(Interleaving::run, true, StartOptions.withId("locked"));
		handle.signal(Interleaving::increment, "A");
		handle.signal(Interleaving::increment, "B");
		await().until(() -> types(handle).stream().filter("SIGNAL_RECEIVED"::equals).count() == 2);
		assertThat(this.engines.count("timer")).isEqualTo(1);
		assertThat(handle.query(Interleaving::log)).containsExactly("A read 0");
		this.engines.clock.advance(Duration.ofMinutes(1));
		await().until(() -> handle.query(Interleaving::log).size() == 3);
		assertThat(handle.query(Interleaving::log)).containsExactly("A read 0", "A wrote 1", "B read 1");
		this.engines.clock.advance(Duration.ofMinutes(1));
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("A read 0", "A wrote 1", "B read 1",
				"B wrote 2", "value 2");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void theMainMethodCanWaitForAllHandlersToFinish() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = engine.client().start(Drain::run, true, StartOptions.withId("drain"));
		handle.signal(Drain::slowWork, "job");
		await().until(() -> this.engines.count("timer") == 1);
		assertThat(handle.query(Drain::handlersFinished)).isFalse();
		handle.signal(Drain::finish);
		await().until(() -> types(handle).stream().filter("SIGNAL_RECEIVED"::equals).count() == 2);
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("job done",
				"returned, all handlers finished: true");
		assertThat(handle.describe().unfinishedHandlers()).isZero();
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aRunThatDoesNotWaitForItsHandlersClosesWithThemUnfinished() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = engine.client().start(Drain::run, false, StartOptions.withId("no-drain"));
		handle.signal(Drain::slowWork, "job");
		await().until(() -> this.engines.count("timer") == 1);
		handle.signal(Drain::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("returned, all handlers finished: false");
		assertThat(handle.describe().unfinishedHandlers()).isEqualTo(1);
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- failures in signal handlers
	// ---------------------------------------------------------

	@Test
	void anApplicationFailureThrownBySignalHandlerFailsTheRun() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = engine.client().start(Strict::run, StartOptions.withId("strict"));
		handle.signal(Strict::reject, "not acceptable");
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.satisfies((ex) -> {
				WorkflowFailedException failed = (WorkflowFailedException) ex;
				assertThat(failed.getStatus()).isEqualTo(WorkflowStatus.FAILED);
				assertThat(failed.getCause()).isInstanceOf(ApplicationFailure.class).hasMessage("not acceptable");
				assertThat(((ApplicationFailure) failed.getCause()).getType()).isEqualTo("Rejected");
			});
		assertThat(types(handle)).endsWith("SIGNAL_RECEIVED", "WORKFLOW_FAILED");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void anyOtherExceptionThrownBySignalHandlerFailsTheTaskUntilTheCodeIsFixed() {
		Strict.fixed = false;
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = engine.client().start(Strict::run, StartOptions.withId("strict-bug"));
		await().until(() -> handle.describe().workflowTasks() == 1);
		handle.signal(Strict::buggy, "first");
		await().until(() -> handle.describe().taskFailure() != null);
		assertThat(handle.describe().taskFailure()).contains("NullPointerException");
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(types(handle)).doesNotContain("SIGNAL_RECEIVED");
		Strict.fixed = true;
		handle.signal(Strict::buggy, "second");
		this.engines.clock.advance(Duration.ofMinutes(10));
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("first", "second");
		assertThat(handle.describe().taskFailure()).isNull();
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- dynamic handlers
	// --------------------------------------------------------------------

	@Test
	void dynamicHandlersReceiveWhatNoNamedHandlerMatches() {
		WorkflowEngine engine = worker();
		WorkflowHandle<List<String>> handle = engine.client().start(Dynamic::run, StartOptions.withId("dynamic"));
		handle.signal(Dynamic::known, "k");
		handle.signal("colour", "blue");
		await().until(() -> handle.query(Dynamic::count) == 2);
		assertThat(handle.query("mystery", "x", String.class)).isEqualTo("query mystery x after 2");
		assertThat(handle.update("anything", "y", String.class)).isEqualTo("updated anything");
		assertThat(handle.update(Dynamic::named, "z")).isEqualTo("named z");
		handle.signal("stop", "now");
		assertThat(handle.result(Duration.ofSeconds(10))).containsExactly("known k", "signal colour blue",
				"update anything y", "named update z", "signal stop now");
		assertThat(handle.query("after-close", "q", String.class)).isEqualTo("query after-close q after 5");
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- signals across nodes
	// ----------------------------------------------------------------

	@Test
	void aSignalFromAClientOnlyNodeReachesTheWorkerByNotification() {
		// the worker polls once an hour: only LISTEN/NOTIFY can tell it in time
		WorkflowEngine worker = worker(this.engines.builder().pollInterval(Duration.ofHours(1)));
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false));
		WorkflowHandle<Object> handle = client.client().start("mh-greeter", 1, StartOptions.withId("remote-greeter"));
		await().atMost(Duration.ofSeconds(5)).until(() -> handle.describe().workflowTasks() == 1);
		long sent = System.nanoTime();
		handle.signal("greet", "from the client");
		await().atMost(Duration.ofSeconds(5)).until(() -> handle.describe().status().isClosed());
		assertThat(handle.result(String.class)).isEqualTo("at start [], in the end [from the client]");
		assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(5));
		Engines.assertReplays(worker, handle.runId());
	}

}
