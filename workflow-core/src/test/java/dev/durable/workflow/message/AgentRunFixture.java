package dev.durable.workflow.message;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.UpdateValidator;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowInit;
import dev.durable.workflow.WorkflowLock;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the agent-run tests ({@link AgentRunMessagesTest},
 * {@link AgentRunConcurrentHandlersTest}) share: the agent run, its activities, and
 * helpers that drive it and read its history.
 *
 * <p>
 * The agent run is the signals, queries and updates example: a run you can pause,
 * question and re-instruct while it runs, and that keeps its messages across worker
 * deaths. Time is the fixture's settable clock: every step of the agent "thinks" one
 * minute of workflow time, so the tests move the loop on by advancing the clock.
 */
abstract class AgentRunFixture {

	static final String GOAL_A = "investigate latency";

	static final String GOAL_B = "switch model";

	final Engines engines = new Engines();

	final AgentTools tools = new AgentTools();

	/** Senders of updates that must not block the test while no worker runs. */
	final ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor();

	@AfterEach
	void close() {
		this.tools.releaseAll();
		this.senders.shutdownNow();
		this.engines.close();
	}

	// ---- the agent
	// -------------------------------------------------------------------------------

	/**
	 * The input of a run.
	 *
	 * @param goal the initial goal
	 * @param maxSteps steps after which the agent is done
	 * @param lockGoal whether changeGoal serializes its read-modify-write with a workflow
	 * lock
	 * @param drainHandlers whether the run waits for running handlers before it returns
	 */
	public record AgentInput(String goal, int maxSteps, boolean lockGoal, boolean drainHandlers) {

		static AgentInput of(String goal, int maxSteps) {
			return new AgentInput(goal, maxSteps, true, true);
		}

	}

	/**
	 * A note for the agent's context; commandId is minted once per user command and
	 * reused on every retry.
	 */
	public record InjectContext(String text, String commandId) {
	}

	/** A new goal; commandId as for {@link InjectContext}. */
	public record ChangeGoal(String goal, String commandId) {
	}

	/** What the status query answers. */
	public record AgentStatus(String goal, int step, boolean paused, boolean cancelled, List<String> injected) {
	}

	/**
	 * The agent's activities: an LLM or tool step, and a context rewrite for a new goal.
	 */
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

		/**
		 * Rewrites the context summary for a new goal; held at a gate when the test asks
		 * for it.
		 */
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
	 * The agent run of the reference, in Java: signals for control, a query for status,
	 * an update for a change the caller must see confirmed.
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

		/**
		 * Runs before any handler: messages may be delivered before the main method first
		 * runs.
		 */
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
				this.tools.nextStep(this.goal, this.step + 1); // an LLM or tool call: an
																// activity
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
				this.tools.rewriteContext(previous, command.goal()); // the handler blocks
																		// here
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

	// ---- fixtures
	// --------------------------------------------------------------------------------

	WorkflowEngine worker() {
		return this.engines.start(this.engines.builder().register(AgentRun.class).registerActivities(this.tools));
	}

	/**
	 * A node that serves the API (signals, queries by replay, updates) but runs no
	 * workflow.
	 */
	WorkflowEngine clientOnly() {
		return this.engines
			.start(this.engines.builder().register(AgentRun.class).registerActivities(this.tools).worker(false));
	}

	void nextMinute() {
		this.engines.clock.advance(Duration.ofMinutes(1));
	}

	/**
	 * Waits until the agent has done this many steps and thinks (its minute's timer is
	 * stored).
	 */
	void awaitStep(WorkflowHandle<String> handle, int step) {
		// a query needs the first workflow task committed: before it, there is no state
		// to answer from
		await().until(() -> handle.describe().workflowTasks() > 0);
		await().until(() -> handle.query(AgentRun::status).step() == step && this.engines.count("timer") == 1);
	}

	static List<String> types(WorkflowHandle<?> handle) {
		return handle.history().stream().map(HistoryEvent::type).toList();
	}

	static List<HistoryEvent> events(List<HistoryEvent> history, String type, String name) {
		return history.stream()
			.filter((e) -> e.type().equals(type) && (name == null || name.equals(e.attributes().get("name"))))
			.toList();
	}

	static long count(WorkflowHandle<?> handle, String type, String name) {
		return events(handle.history(), type, name).size();
	}

	static Object payloadField(HistoryEvent event, String field) {
		return (event.attributes().get("payload") instanceof Map<?, ?> payload) ? payload.get(field) : null;
	}

	/** The SIGNAL_RECEIVED events of injectContext carrying this command id. */
	static long injected(WorkflowHandle<?> handle, String commandId) {
		return events(handle.history(), "SIGNAL_RECEIVED", "injectContext").stream()
			.filter((e) -> commandId.equals(payloadField(e, "commandId")))
			.count();
	}

	static HistoryEvent accepted(List<HistoryEvent> history, String goal) {
		List<HistoryEvent> found = events(history, "UPDATE_ACCEPTED", "changeGoal").stream()
			.filter((e) -> goal.equals(payloadField(e, "goal")))
			.toList();
		assertThat(found).as("UPDATE_ACCEPTED of changeGoal(%s)", goal).hasSize(1);
		return found.get(0);
	}

}
