package dev.durable.workflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UpdateHandle;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.WorkflowUpdateFailedException;
import dev.durable.workflow.client.WorkflowUpdateRejectedException;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Lab 5 of the reference course ("Signals, Queries, and Updates"), on the agent-run example: a
 * run you can pause, question and re-instruct while it runs, and that keeps its messages across
 * worker deaths. Time is the fixture's settable clock: every step of the agent "thinks" one
 * minute of workflow time, so the tests move the loop on by advancing the clock.
 */
class AgentRunLabsTest {

	private static final String GOAL_A = "investigate latency";

	private static final String GOAL_B = "switch model";

	private final Engines engines = new Engines();

	private final AgentTools tools = new AgentTools();

	/** Senders of updates that must not block the test while no worker runs (lab 5.5). */
	private final ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor();

	@AfterEach
	void close() {
		this.tools.releaseAll();
		this.senders.shutdownNow();
		this.engines.close();
	}

	// ---- the agent -------------------------------------------------------------------------------

	/**
	 * The input of a run.
	 *
	 * @param goal the initial goal
	 * @param maxSteps steps after which the agent is done
	 * @param lockGoal whether changeGoal serializes its read-modify-write with a workflow lock
	 * @param drainHandlers whether the run waits for running handlers before it returns
	 */
	public record AgentInput(String goal, int maxSteps, boolean lockGoal, boolean drainHandlers) {

		static AgentInput of(String goal, int maxSteps) {
			return new AgentInput(goal, maxSteps, true, true);
		}

	}

	/** A note for the agent's context; commandId is minted once per user command and reused on every retry. */
	public record InjectContext(String text, String commandId) {
	}

	/** A new goal; commandId as for {@link InjectContext}. */
	public record ChangeGoal(String goal, String commandId) {
	}

	/** What the status query answers. */
	public record AgentStatus(String goal, int step, boolean paused, boolean cancelled, List<String> injected) {
	}

	/** The agent's activities: an LLM or tool step, and a context rewrite for a new goal. */
	@Activity
	public static class AgentTools {

		private final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();

		private final Map<String, CountDownLatch> started = new ConcurrentHashMap<>();

		/** What the steps did, in order. */
		final List<String> steps = new CopyOnWriteArrayList<>();

		public String nextStep(String goal, int step) {
			String done = "step " + step + " towards '" + goal + "'";
			this.steps.add(done);
			return done;
		}

		/** Rewrites the context summary for a new goal; held at a gate when the test asks for it. */
		public String rewriteContext(String fromGoal, String toGoal) {
			started(toGoal).countDown();
			CountDownLatch gate = this.gates.get(toGoal);
			if (gate != null) {
				try {
					if (!gate.await(30, TimeUnit.SECONDS)) {
						throw new IllegalStateException("the test never opened the gate of '" + toGoal + "'");
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("interrupted at the gate of '" + toGoal + "'", ex);
				}
			}
			return "context rewritten from '" + fromGoal + "' to '" + toGoal + "'";
		}

		/** Counted down when the rewrite for this goal starts. */
		CountDownLatch started(String goal) {
			return this.started.computeIfAbsent(goal, (g) -> new CountDownLatch(1));
		}

		/** Makes the rewrite for this goal wait until {@link #release(String)}. */
		void hold(String goal) {
			this.gates.put(goal, new CountDownLatch(1));
		}

		void release(String goal) {
			this.gates.get(goal).countDown();
		}

		void releaseAll() {
			this.gates.values().forEach(CountDownLatch::countDown);
		}

	}

	/**
	 * The agent run of the reference, in Java: signals for control, a query for status, an update
	 * for a change the caller must see confirmed.
	 */
	@Workflow("agent-run")
	public static class AgentRun {

		private final AgentTools tools;

		private String goal;

		private int maxSteps;

		private boolean lockGoal;

		private boolean drainHandlers;

		private int step;

		private boolean paused;

		private boolean cancelled;

		private final List<String> injected = new ArrayList<>();

		private final Set<String> processedCommandIds = new HashSet<>();

		private WorkflowLock lock;

		public AgentRun(AgentTools tools) {
			this.tools = tools;
		}

		/** Runs before any handler: messages may be delivered before the main method first runs. */
		@WorkflowInit
		public void init(AgentInput input) {
			this.goal = input.goal();
			this.maxSteps = input.maxSteps();
			this.lockGoal = input.lockGoal();
			this.drainHandlers = input.drainHandlers();
			this.lock = Workflows.newLock();
		}

		@WorkflowRun
		public String run(AgentInput input) {
			while (!this.cancelled && this.step < this.maxSteps) {
				// pause: the main loop blocks here; nothing polls, no worker is required
				Workflows.await(() -> !this.paused || this.cancelled);
				if (this.cancelled) {
					break;
				}
				this.tools.nextStep(this.goal, this.step + 1); // an LLM or tool call: an activity
				this.step++;
				// the step's minute of workflow time, cut short by cancelRun
				Workflows.await(Duration.ofMinutes(1), () -> this.cancelled);
			}
			if (this.drainHandlers) {
				Workflows.await(Workflows::allHandlersFinished);
			}
			return summary();
		}

		@SignalMethod
		public void pause() {
			this.paused = true;
		}

		@SignalMethod
		public void resume() {
			this.paused = false;
		}

		@SignalMethod
		public void cancelRun() {
			this.cancelled = true;
		}

		@SignalMethod
		public void injectContext(InjectContext command) {
			if (!this.processedCommandIds.add(command.commandId())) {
				return; // a retried signal: see "Message idempotency"
			}
			this.injected.add(command.text());
		}

		@QueryMethod
		public AgentStatus status() {
			return new AgentStatus(this.goal, this.step, this.paused, this.cancelled, List.copyOf(this.injected));
		}

		@UpdateMethod
		public String changeGoal(ChangeGoal command) {
			if (this.processedCommandIds.contains(command.commandId())) {
				return this.goal; // already applied: answer, do not re-apply
			}
			if (this.lockGoal) {
				this.lock.lock(); // serialize with anything else that touches goal
			}
			try {
				this.processedCommandIds.add(command.commandId());
				String previous = this.goal;
				this.tools.rewriteContext(previous, command.goal()); // the handler blocks here
				this.goal = command.goal();
				this.injected.add("goal changed from '" + previous + "' to '" + this.goal + "'");
				return this.goal;
			}
			finally {
				if (this.lockGoal) {
					this.lock.unlock();
				}
			}
		}

		@UpdateValidator(update = "changeGoal")
		public void validateGoal(ChangeGoal command) {
			if (command.goal() == null || command.goal().isBlank()) {
				throw new IllegalArgumentException("goal must not be empty");
			}
		}

		private String summary() {
			return "goal '" + this.goal + "', " + this.step + " steps" + (this.cancelled ? ", cancelled" : "")
					+ ", notes " + this.injected;
		}

	}

	// ---- fixtures --------------------------------------------------------------------------------

	private WorkflowEngine worker() {
		return this.engines.start(this.engines.builder().register(AgentRun.class).registerActivities(this.tools));
	}

	/** A node that serves the API (signals, queries by replay, updates) but runs no workflow. */
	private WorkflowEngine clientOnly() {
		return this.engines
			.start(this.engines.builder().register(AgentRun.class).registerActivities(this.tools).worker(false));
	}

	private void nextMinute() {
		this.engines.clock.advance(Duration.ofMinutes(1));
	}

	/** Waits until the agent has done this many steps and thinks (its minute's timer is stored). */
	private void awaitStep(WorkflowHandle<String> handle, int step) {
		// a query needs the first workflow task committed: before it, there is no state to answer from
		await().until(() -> handle.describe().workflowTasks() > 0);
		await().until(() -> handle.query(AgentRun::status).step() == step && this.engines.count("timer") == 1);
	}

	private static List<String> types(WorkflowHandle<?> handle) {
		return handle.history().stream().map(HistoryEvent::type).toList();
	}

	private static List<HistoryEvent> events(List<HistoryEvent> history, String type, String name) {
		return history.stream()
			.filter((e) -> e.type().equals(type) && (name == null || name.equals(e.attributes().get("name"))))
			.toList();
	}

	private static long count(WorkflowHandle<?> handle, String type, String name) {
		return events(handle.history(), type, name).size();
	}

	private static Object payloadField(HistoryEvent event, String field) {
		return (event.attributes().get("payload") instanceof Map<?, ?> payload) ? payload.get(field) : null;
	}

	/** The SIGNAL_RECEIVED events of injectContext carrying this command id. */
	private static long injected(WorkflowHandle<?> handle, String commandId) {
		return events(handle.history(), "SIGNAL_RECEIVED", "injectContext").stream()
			.filter((e) -> commandId.equals(payloadField(e, "commandId")))
			.count();
	}

	private static HistoryEvent accepted(List<HistoryEvent> history, String goal) {
		List<HistoryEvent> found = events(history, "UPDATE_ACCEPTED", "changeGoal").stream()
			.filter((e) -> goal.equals(payloadField(e, "goal")))
			.toList();
		assertThat(found).as("UPDATE_ACCEPTED of changeGoal(%s)", goal).hasSize(1);
		return found.get(0);
	}

	// ---- 5.1 -------------------------------------------------------------------------------------

	@Test
	void lab5_1_pauseResumeAndCancelRunSignalsAndTheStatusQueryDriveTheLoop() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client()
			.start(AgentRun::run, AgentInput.of("fix the flaky test", 10), StartOptions.withId("agent-5-1"));
		awaitStep(handle, 1);
		assertThat(handle.query(AgentRun::status))
			.isEqualTo(new AgentStatus("fix the flaky test", 1, false, false, List.of()));

		// pause: the handler flips a flag; when the step's minute is over the loop blocks on it
		handle.signal(AgentRun::pause);
		await().until(() -> handle.query(AgentRun::status).paused());
		nextMinute();
		await().until(() -> count(handle, "TIMER_FIRED", null) == 1);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.query(AgentRun::status)).isEqualTo(new AgentStatus("fix the flaky test", 1, true, false, List.of()));
		assertThat(count(handle, "ACTIVITY_SCHEDULED", "nextStep")).as("no step while paused").isEqualTo(1);
		assertThat(this.engines.count("timer")).isZero();

		// queries never add history events
		int events = handle.history().size();
		for (int i = 0; i < 3; i++) {
			handle.query(AgentRun::status);
		}
		assertThat(handle.history()).hasSize(events);

		// resume: the loop runs step 2
		handle.signal(AgentRun::resume);
		awaitStep(handle, 2);
		assertThat(handle.query(AgentRun::status).paused()).isFalse();

		// cancelRun: cuts the step's minute short, the loop ends and the run returns its summary
		handle.signal(AgentRun::cancelRun);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("goal 'fix the flaky test', 2 steps, cancelled, notes []");
		assertThat(handle.query(AgentRun::status).cancelled()).isTrue();
		List<HistoryEvent> history = handle.history();
		assertThat(events(history, "SIGNAL_RECEIVED", null)).extracting((e) -> e.attributes().get("name"))
			.containsExactly("pause", "resume", "cancelRun");
		assertThat(history).extracting(HistoryEvent::type)
			.containsSubsequence("SIGNAL_RECEIVED", "TIMER_CANCELED", "WORKFLOW_COMPLETED");
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.COMPLETED);
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- 5.2 -------------------------------------------------------------------------------------

	@Test
	void lab5_2_aPausedRunWaitsForItsResumeWhileNoWorkerRuns() {
		WorkflowEngine first = worker();
		WorkflowHandle<String> handle = first.client()
			.start(AgentRun::run, AgentInput.of("migrate the build", 2), StartOptions.withId("agent-5-2"));
		awaitStep(handle, 1);
		handle.signal(AgentRun::pause);
		await().until(() -> handle.query(AgentRun::status).paused());
		nextMinute();
		// the loop now blocks on "not paused"
		await().until(() -> count(handle, "TIMER_FIRED", null) == 1);

		// every worker disappears: nothing polls for this run and no process holds its state
		first.shutdown();
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".workflow_run WHERE owner_node IS NOT NULL",
					Integer.class))
			.isZero();

		// two days later resume arrives, through a node that runs no worker: it is stored
		this.engines.clock.advance(Duration.ofDays(2));
		WorkflowEngine api = clientOnly();
		WorkflowHandle<String> remote = api.client().handle("agent-5-2", String.class);
		List<HistoryEvent> before = remote.history();
		remote.signal(AgentRun::resume);
		assertThat(this.engines.count("inbox")).as("stored, waiting for a worker").isEqualTo(1);
		assertThat(remote.history()).as("not yet seen by the workflow").isEqualTo(before);
		assertThat(remote.query(AgentRun::status))
			.isEqualTo(new AgentStatus("migrate the build", 1, true, false, List.of()));
		assertThat(remote.describe().status()).isEqualTo(WorkflowStatus.RUNNING);

		// a worker starts later: it replays history to step 1, sees the resume, runs step 2
		WorkflowEngine second = worker();
		awaitStep(remote, 2);
		nextMinute();
		assertThat(remote.result(Duration.ofSeconds(10))).isEqualTo("goal 'migrate the build', 2 steps, notes []");
		assertThat(this.engines.count("inbox")).isZero();

		// the resume that waited: recorded when the new worker took it, two days after the pause
		List<HistoryEvent> history = remote.history();
		HistoryEvent pause = events(history, "SIGNAL_RECEIVED", "pause").get(0);
		List<HistoryEvent> resumes = events(history, "SIGNAL_RECEIVED", "resume");
		assertThat(resumes).hasSize(1);
		HistoryEvent resume = resumes.get(0);
		assertThat(Duration.between(pause.time(), resume.time())).isGreaterThanOrEqualTo(Duration.ofDays(2));
		assertThat(history.subList((int) pause.eventId(), (int) resume.eventId() - 1))
			.as("nothing ran while paused")
			.extracting(HistoryEvent::type)
			.containsExactly("TIMER_FIRED");
		assertThat(history).filteredOn((e) -> e.workflowTask() == resume.workflowTask())
			.extracting(HistoryEvent::type)
			.containsExactly("SIGNAL_RECEIVED", "ACTIVITY_SCHEDULED");
		assertThat(events(history, "ACTIVITY_SCHEDULED", "nextStep")).hasSize(2);
		Engines.assertReplays(second, remote.runId());
	}

	// ---- 5.3 -------------------------------------------------------------------------------------

	@Test
	void lab5_3_changeGoalIsAnUpdateWhoseValidatorRejectsBlankGoalsWithoutAnEvent() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client()
			.start(AgentRun::run, AgentInput.of("write the docs", 10), StartOptions.withId("agent-5-3"));
		awaitStep(handle, 1);

		// rejected: the caller gets the validator's failure, the workflow has no trace of it
		List<HistoryEvent> before = handle.history();
		assertThatThrownBy(() -> handle.update(AgentRun::changeGoal, new ChangeGoal("   ", "cmd-9f20")))
			.isInstanceOf(WorkflowUpdateRejectedException.class)
			.hasMessageContaining("goal must not be empty")
			.cause()
			.hasMessageContaining("goal must not be empty");
		assertThatThrownBy(() -> handle.startUpdate(AgentRun::changeGoal, new ChangeGoal("", "cmd-9f21"),
				UpdateOptions.withId("reject-me")))
			.isInstanceOf(WorkflowUpdateRejectedException.class);
		assertThat(handle.history()).isEqualTo(before);
		// the rejection is still kept for the caller, by update id
		assertThatThrownBy(() -> handle.updateHandle("reject-me", String.class).result())
			.isInstanceOf(WorkflowUpdateRejectedException.class)
			.hasMessageContaining("goal must not be empty");
		assertThat(handle.query(AgentRun::status).goal()).isEqualTo("write the docs");

		// accepted: recorded, run (with its activity), and the caller gets the handler's value
		assertThat(handle.update(AgentRun::changeGoal, new ChangeGoal("write the tests first", "cmd-9f1e")))
			.isEqualTo("write the tests first");
		AgentStatus status = handle.query(AgentRun::status);
		assertThat(status.goal()).isEqualTo("write the tests first");
		assertThat(status.injected()).containsExactly("goal changed from 'write the docs' to 'write the tests first'");
		List<HistoryEvent> history = handle.history();
		assertThat(history.subList(before.size(), history.size())).extracting(HistoryEvent::type)
			.containsExactly("UPDATE_ACCEPTED", "ACTIVITY_SCHEDULED", "ACTIVITY_COMPLETED", "UPDATE_COMPLETED");
		assertThat(payloadField(accepted(history, "write the tests first"), "commandId")).isEqualTo("cmd-9f1e");

		// the next step works towards the new goal
		nextMinute();
		awaitStep(handle, 2);
		assertThat(this.tools.steps).containsExactly("step 1 towards 'write the docs'",
				"step 2 towards 'write the tests first'");
		handle.signal(AgentRun::cancelRun);
		assertThat(handle.result(Duration.ofSeconds(10))).startsWith("goal 'write the tests first', 2 steps, cancelled");
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- 5.4 -------------------------------------------------------------------------------------

	@Test
	void lab5_4_aRetriedInjectContextIsDeduplicatedByCommandIdInWorkflowState() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client()
			.start(AgentRun::run, AgentInput.of("answer the ticket", 10), StartOptions.withId("agent-5-4"));
		awaitStep(handle, 1);

		// the connection broke after the signal was recorded: the client's retry loop sends it again
		InjectContext note = new InjectContext("the customer is on the EU cluster", "cmd-7c01");
		handle.signal(AgentRun::injectContext, note);
		handle.signal(AgentRun::injectContext, note);
		await().until(() -> injected(handle, "cmd-7c01") == 2);
		assertThat(handle.query(AgentRun::status).injected()).containsExactly("the customer is on the EU cluster");

		// with the engine's idempotency key the retried send is a no-op: one event
		InjectContext keyed = new InjectContext("the ticket is a duplicate of #42", "cmd-7c02");
		handle.signal(AgentRun::injectContext, keyed, "send-7c02");
		handle.signal(AgentRun::injectContext, keyed, "send-7c02");
		// a later signal: inbox items are taken in order, so once it is in history the keyed ones are too
		handle.signal(AgentRun::injectContext, new InjectContext("marker", "cmd-7c03"));
		await().until(() -> injected(handle, "cmd-7c03") == 1);
		assertThat(injected(handle, "cmd-7c02")).isEqualTo(1);
		assertThat(handle.query(AgentRun::status).injected())
			.containsExactly("the customer is on the EU cluster", "the ticket is a duplicate of #42", "marker");

		// the same shape for changeGoal: the update completed, the response was lost, a new request
		// with the same command id is answered from workflow state and adds no second note
		ChangeGoal change = new ChangeGoal("reply in German", "cmd-7c04");
		assertThat(handle.update(AgentRun::changeGoal, change)).isEqualTo("reply in German");
		assertThat(handle.update(AgentRun::changeGoal, change)).isEqualTo("reply in German");
		assertThat(events(handle.history(), "UPDATE_ACCEPTED", "changeGoal")).hasSize(2);
		assertThat(events(handle.history(), "ACTIVITY_SCHEDULED", "rewriteContext")).hasSize(1);
		// and a retry with the same update id is answered by the engine from the stored outcome
		ChangeGoal other = new ChangeGoal("reply in French", "cmd-7c05");
		UpdateOptions sameId = UpdateOptions.withId("update-7c05").waitFor(UpdateStage.COMPLETED);
		assertThat(handle.startUpdate(AgentRun::changeGoal, other, sameId).result()).isEqualTo("reply in French");
		assertThat(handle.startUpdate(AgentRun::changeGoal, other, sameId).result()).isEqualTo("reply in French");
		assertThat(events(handle.history(), "UPDATE_ACCEPTED", "changeGoal")).hasSize(3);
		assertThat(handle.query(AgentRun::status).injected()).containsExactly("the customer is on the EU cluster",
				"the ticket is a duplicate of #42", "marker", "goal changed from 'answer the ticket' to 'reply in German'",
				"goal changed from 'reply in German' to 'reply in French'");

		handle.signal(AgentRun::cancelRun);
		assertThat(handle.result(Duration.ofSeconds(10))).startsWith("goal 'reply in French', 1 steps, cancelled");
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- 5.5 -------------------------------------------------------------------------------------

	/**
	 * A run after two changeGoal updates and a pause reached it in one activation.
	 *
	 * @param worker the worker that runs it now
	 * @param handle its handle
	 * @param a update A (GOAL_A), sent first
	 * @param b update B (GOAL_B), sent second
	 */
	private record Delivered(WorkflowEngine worker, WorkflowHandle<String> handle, UpdateHandle<String> a,
			UpdateHandle<String> b) {
	}

	/**
	 * Starts an agent, lets it do one step, then delivers update A, update B and a pause signal so
	 * that ONE workflow task sees all three, in that order; A's activity is held at a gate.
	 * <p>
	 * How this is made deterministic: a workflow task takes the run's whole inbox at once, ordered
	 * by arrival. So the worker is stopped, the three messages are stored through a client-only
	 * node while no worker runs, and only then a new worker is started: its first task applies
	 * A, B and pause together. {@code startUpdate} waits for ACCEPTED, which needs a worker, so
	 * each update is sent from its own thread; the test waits until each one is stored (its inbox
	 * row) before it sends the next, which fixes the order A, B, pause.
	 */
	private Delivered startAndDeliver(String workflowId, boolean lockGoal, boolean drainHandlers) throws Exception {
		WorkflowEngine first = worker();
		WorkflowHandle<String> started = first.client()
			.start(AgentRun::run, new AgentInput("ship v1", 10, lockGoal, drainHandlers), StartOptions.withId(workflowId));
		awaitStep(started, 1);
		this.tools.hold(GOAL_A);
		first.shutdown();

		WorkflowEngine api = clientOnly();
		WorkflowHandle<String> remote = api.client().handle(workflowId, String.class);
		CompletableFuture<UpdateHandle<String>> a = CompletableFuture.supplyAsync(() -> remote
			.startUpdate(AgentRun::changeGoal, new ChangeGoal(GOAL_A, "cmd-A"), UpdateOptions.withId("update-A")),
				this.senders);
		await().until(() -> this.engines.count("inbox") == 1);
		CompletableFuture<UpdateHandle<String>> b = CompletableFuture.supplyAsync(() -> remote
			.startUpdate(AgentRun::changeGoal, new ChangeGoal(GOAL_B, "cmd-B"), UpdateOptions.withId("update-B")),
				this.senders);
		await().until(() -> this.engines.count("inbox") == 2);
		remote.signal(AgentRun::pause);
		assertThat(this.engines.count("inbox")).isEqualTo(3);
		assertThat(a).isNotDone();

		WorkflowEngine second = worker();
		WorkflowHandle<String> handle = second.client().handle(workflowId, String.class);
		UpdateHandle<String> updateA = a.get(20, TimeUnit.SECONDS);
		UpdateHandle<String> updateB = b.get(20, TimeUnit.SECONDS);
		assertThat(updateA.stage()).isEqualTo(UpdateStage.ACCEPTED);

		// the two UPDATE_ACCEPTED events and the pause: one workflow task, in the order received
		List<HistoryEvent> history = handle.history();
		HistoryEvent acceptedA = accepted(history, GOAL_A);
		HistoryEvent acceptedB = accepted(history, GOAL_B);
		List<HistoryEvent> pauses = events(history, "SIGNAL_RECEIVED", "pause");
		assertThat(pauses).hasSize(1);
		assertThat(acceptedA.attributes()).containsEntry("name", "changeGoal");
		assertThat(payloadField(acceptedA, "commandId")).isEqualTo("cmd-A");
		assertThat(payloadField(acceptedB, "commandId")).isEqualTo("cmd-B");
		assertThat(List.of(acceptedB.workflowTask(), pauses.get(0).workflowTask()))
			.containsOnly(acceptedA.workflowTask());
		assertThat(List.of(acceptedA.eventId(), acceptedB.eventId(), pauses.get(0).eventId())).isSorted();
		assertThat(this.tools.started(GOAL_A).await(10, TimeUnit.SECONDS)).as("A's activity runs").isTrue();
		return new Delivered(second, handle, updateA, updateB);
	}

	@Test
	void lab5_5_withoutALockTheOlderGoalOverwritesTheNewer() throws Exception {
		Delivered run = startAndDeliver("agent-5-5-unlocked", false, true);
		WorkflowHandle<String> handle = run.handle();
		// A's handler started first and yielded at its activity; B's ran to its own activity, which
		// finishes first: B writes its goal
		assertThat(events(handle.history(), "ACTIVITY_SCHEDULED", "rewriteContext")).hasSize(2);
		assertThat(run.b().result(Duration.ofSeconds(10))).isEqualTo(GOAL_B);
		assertThat(handle.query(AgentRun::status).goal()).isEqualTo(GOAL_B);

		// then A resumes and overwrites it with the older goal, and tells its caller so
		this.tools.release(GOAL_A);
		assertThat(run.a().result(Duration.ofSeconds(10))).isEqualTo(GOAL_A);
		AgentStatus status = handle.query(AgentRun::status);
		assertThat(status.goal()).isEqualTo(GOAL_A);
		assertThat(status.paused()).isTrue();
		assertThat(status.injected()).containsExactly("goal changed from 'ship v1' to '" + GOAL_B + "'",
				"goal changed from 'ship v1' to '" + GOAL_A + "'");

		handle.signal(AgentRun::cancelRun);
		assertThat(handle.result(Duration.ofSeconds(10))).startsWith("goal '" + GOAL_A + "', 1 steps, cancelled");
		assertThat(handle.describe().unfinishedHandlers()).isZero();
		Engines.assertReplays(run.worker(), handle.runId());
	}

	@Test
	void lab5_5_withALockTheLaterGoalWinsAndTheRunDrainsItsHandlersBeforeItCompletes() throws Exception {
		Delivered run = startAndDeliver("agent-5-5-locked", true, true);
		WorkflowHandle<String> handle = run.handle();
		// A holds the lock while it awaits its activity; B waits for the lock, its activity is not scheduled
		assertThat(events(handle.history(), "ACTIVITY_SCHEDULED", "rewriteContext")).hasSize(1);

		// the main loop ends while A's handler still awaits its activity: it drains first
		handle.signal(AgentRun::cancelRun);
		await().until(() -> count(handle, "SIGNAL_RECEIVED", "cancelRun") == 1);
		assertThat(handle.query(AgentRun::status).cancelled()).isTrue();
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(types(handle)).doesNotContain("UPDATE_COMPLETED", "WORKFLOW_COMPLETED");

		this.tools.release(GOAL_A);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("goal '" + GOAL_B + "', 1 steps, cancelled, notes ["
				+ "goal changed from 'ship v1' to '" + GOAL_A + "', goal changed from '" + GOAL_A + "' to '" + GOAL_B + "']");
		// both callers got their answers: A completed, then B read A's goal and replaced it
		assertThat(run.a().result(Duration.ofSeconds(10))).isEqualTo(GOAL_A);
		assertThat(run.b().result(Duration.ofSeconds(10))).isEqualTo(GOAL_B);
		List<String> types = types(handle);
		assertThat(types).containsSubsequence("UPDATE_COMPLETED", "UPDATE_COMPLETED", "WORKFLOW_COMPLETED");
		assertThat(types).last().isEqualTo("WORKFLOW_COMPLETED");
		assertThat(handle.describe().unfinishedHandlers()).isZero();
		Engines.assertReplays(run.worker(), handle.runId());
	}

	/**
	 * The main loop returns while A awaits its activity and B waits for the lock: both handlers are
	 * cut off when the run completes.
	 */
	private Delivered completeWithoutDraining(String workflowId) throws Exception {
		Delivered run = startAndDeliver(workflowId, true, false);
		WorkflowHandle<String> handle = run.handle();
		handle.signal(AgentRun::cancelRun);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("goal 'ship v1', 1 steps, cancelled, notes []");
		return run;
	}

	@Test
	void lab5_5_returningWithoutDrainingCutsTheHandlersOff() throws Exception {
		Delivered run = completeWithoutDraining("agent-5-5-undrained");
		WorkflowHandle<String> handle = run.handle();
		assertThat(types(handle)).doesNotContain("UPDATE_COMPLETED");
		assertThat(types(handle)).last().isEqualTo("WORKFLOW_COMPLETED");
		// their callers learn the run closed before the updates completed (Temporal: "Not Found")
		assertThatThrownBy(() -> run.a().result(Duration.ofSeconds(10))).isInstanceOf(WorkflowUpdateFailedException.class)
			.hasMessageContaining("closed");
		assertThatThrownBy(() -> run.b().result(Duration.ofSeconds(10))).isInstanceOf(WorkflowUpdateFailedException.class)
			.hasMessageContaining("closed");
		assertThat(handle.query(AgentRun::status).goal()).as("A's activity result is never applied").isEqualTo("ship v1");
		Engines.assertReplays(run.worker(), handle.runId());
	}

	@Test
	void lab5_5_describeCountsTheHandlersARunLeftUnfinished() throws Exception {
		Delivered run = completeWithoutDraining("agent-5-5-unfinished");
		WorkflowHandle<String> handle = run.handle();
		assertThat(handle.describe().closeTime()).isNotNull();
		// A (awaiting its activity) and B (waiting for the lock)
		assertThat(handle.describe().unfinishedHandlers()).isEqualTo(2);
		Engines.assertReplays(run.worker(), handle.runId());
	}

}
