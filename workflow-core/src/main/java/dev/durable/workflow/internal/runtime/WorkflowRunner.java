package dev.durable.workflow.internal.runtime;

import java.lang.reflect.InvocationTargetException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;

import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.ActivityCompleted;
import dev.durable.workflow.internal.history.Event.ActivityFailed;
import dev.durable.workflow.internal.history.Event.CancelRequested;
import dev.durable.workflow.internal.history.Event.ChildClosed;
import dev.durable.workflow.internal.history.Event.ChildStartFailed;
import dev.durable.workflow.internal.history.Event.ChildStarted;
import dev.durable.workflow.internal.history.Event.ExternalDelivered;
import dev.durable.workflow.internal.history.Event.SignalReceived;
import dev.durable.workflow.internal.history.Event.TimerFired;
import dev.durable.workflow.internal.history.Event.UpdateAccepted;
import dev.durable.workflow.internal.history.Event.WorkflowAttributes;
import dev.durable.workflow.internal.history.Event.WorkflowStarted;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.support.Payloads;

/**
 * The in-memory state machine of one run: applies a task's inputs, runs the workflow code
 * until it blocks, and collects the commands it issued. On replay the commands are
 * matched against the recorded ones; any difference is a
 * {@link NonDeterministicWorkflowException}. Workflow code reaches the run through its
 * {@link WorkflowContext}.
 */
public final class WorkflowRunner {

	private final RunIdentity identity;

	private final DeterministicScheduler scheduler;

	private final CancellationScopeImpl rootScope = new CancellationScopeImpl(null, null);

	private final CommandRecorder commands;

	private final TimerStates timers;

	private final ActivityStates activities;

	private final ChildStates children;

	private final VisibilityStates visibility;

	/** Workflows.setCurrentDetails: state only, rebuilt by replay. */
	private String currentDetails;

	private final MainMethod main;

	private final Random random;

	private int historySeq;

	private long eventCount;

	private long historyBytes;

	private final EngineSettings.HistoryLimits historyLimits;

	private Instant taskTime = Instant.EPOCH;

	private boolean started;

	private Object instance;

	private int unfinishedHandlers;

	private final MessageStates messages;

	private ActivityAttempts activityAttempts = ActivityAttempts.NONE;

	private final WorkflowContext context;

	private final TopicWaits topics;

	public WorkflowRunner(RunIdentity identity, WorkflowDefinition definition, Function<Class<?>, Object> factory,
			Payloads payloads, Duration taskTimeout, EngineSettings.HistoryLimits historyLimits,
			LocalActivityInvoker localActivities) {
		this.historyLimits = historyLimits;
		this.identity = identity;
		this.scheduler = new DeterministicScheduler(taskTimeout.toMillis());
		this.commands = new CommandRecorder(identity.runId());
		this.timers = new TimerStates(this.commands);
		this.activities = new ActivityStates(this.commands, payloads, (seq) -> this.activityAttempts.made(seq));
		this.messages = new MessageStates(this, definition, payloads);
		this.topics = new TopicWaits(this.commands, payloads);
		MarkerStates markers = new MarkerStates(this.commands, payloads, identity.runId());
		this.children = new ChildStates(this.commands, payloads);
		this.visibility = new VisibilityStates(this.commands, identity.runId());
		this.main = new MainMethod(this, definition, factory, payloads, this.rootScope);
		UUID runId = identity.runId();
		this.random = new Random(seedOf(runId));
		this.context = new WorkflowContext(this, identity, definition, payloads, this.scheduler, this.commands,
				this.timers, this.activities, markers,
				new LocalActivities(this.commands, payloads, identity, localActivities), this.children, this.visibility,
				this.messages, this.topics, this.random);
	}

	private static long seedOf(UUID runId) {
		return runId.getMostSignificantBits() ^ runId.getLeastSignificantBits();
	}

	// ---- driven by the engine
	// -------------------------------------------------------------

	/**
	 * Re-executes one recorded task, requiring the same commands.
	 * @return the commands the code issued, as it issued them
	 */
	public List<Event> replay(TaskRecord record) {
		this.commands.beginReplay(record.commands(), record.seq());
		this.scheduler.beginActivation();
		this.taskTime = record.time();
		for (Event input : record.inputs()) {
			applyInput(input);
		}
		runCode();
		this.commands.checkAllMatched(record.seq());
		this.historySeq = record.seq();
		this.eventCount += record.events().size();
		this.historyBytes += record.sizeBytes();
		return this.commands.produced();
	}

	/** Executes a new task with the given candidate inputs; stale inputs are dropped. */
	public TaskResult execute(Instant now, List<Event> candidates) {
		this.commands.beginNewTask();
		this.scheduler.beginActivation();
		this.messages.beginTask();
		if (now.isAfter(this.taskTime)) {
			this.taskTime = now;
		}
		List<Event> accepted = new ArrayList<>();
		for (Event candidate : candidates) {
			Event input = candidate;
			if (input instanceof UpdateAccepted update) {
				// a new update: its validator decides whether it enters history at all
				input = offerUpdate(update);
				if (input == null) {
					continue;
				}
			}
			if (applyInput(input)) {
				accepted.add(input);
			}
		}
		runCode();
		if (!accepted.isEmpty() || this.commands.producedCount() > 0) {
			this.historySeq++;
		}
		this.eventCount += accepted.size() + this.commands.producedCount();
		return new TaskResult(accepted, this.commands.produced(), this.messages.outcomes(),
				isClosed() ? this.unfinishedHandlers : 0);
	}

	private boolean applyInput(Event input) {
		bindEngineThread();
		try {
			switch (input) {
				case WorkflowStarted started -> {
					if (this.started) {
						return false;
					}
					this.started = true;
					if (started.seed() != null) {
						// a reset run replays history first run by another run: use that
						// run's seed
						this.random.setSeed(seedOf(UUID.fromString(started.seed())));
					}
					this.instance = this.main.start(started.input());
				}
				case ActivityCompleted completed -> {
					return this.activities.resolve(completed);
				}
				case ActivityFailed failed -> {
					return this.activities.resolve(failed);
				}
				case TimerFired fired -> {
					return this.timers.fire(fired.seq());
				}
				case CancelRequested cancel -> this.rootScope.cancel(cancel.reason());
				case ChildStarted started -> {
					return this.children.started(started);
				}
				case ChildStartFailed failed -> {
					return this.children.startFailed(failed);
				}
				case ChildClosed closed -> {
					return this.children.closed(closed);
				}
				case ExternalDelivered delivered -> {
					return this.children.delivered(delivered);
				}
				case WorkflowAttributes attributes -> this.visibility.started(attributes);
				case SignalReceived signal -> this.messages.signal(signal);
				case UpdateAccepted update -> this.messages.accepted(update);
				case Event.TopicEventReceived event -> {
					return this.topics.received(event);
				}
				// an operation on a pending activity: recorded for people, never seen by
				// the code, so its replay ignores it
				case Event.ActivityPaused paused -> {
				}
				case Event.ActivityUnpaused unpaused -> {
				}
				case Event.ActivityReset reset -> {
				}
				case Event.ActivityOptionsUpdated updated -> {
				}
				default -> throw new IllegalArgumentException("Not an input: " + input.type());
			}
			return true;
		}
		finally {
			WorkflowThread.unbind();
		}
	}

	private Event offerUpdate(UpdateAccepted candidate) {
		if (this.instance == null || isClosed()) {
			this.messages.reject(candidate.updateId(), "WorkflowClosed",
					"Run " + this.identity.runId() + " is closing and accepts no update");
			return null;
		}
		bindEngineThread();
		try {
			return this.messages.offerUpdate(candidate.updateId(), candidate.name(), candidate.payload());
		}
		finally {
			WorkflowThread.unbind();
		}
	}

	private void runCode() {
		bindEngineThread();
		try {
			boolean inTime = VirtualHop.call(() -> {
				bindEngineThread(); // await conditions run on the stepping thread and
									// call the engine
				return this.scheduler
					.runUntilBlocked(() -> this.commands.fatal() != null || this.commands.closeEvent() != null);
			});
			if (!inTime) {
				this.commands
					.failTask(new WorkflowTaskFailedException("A workflow thread of run " + this.identity.runId()
							+ " did not yield within the task timeout: blocking I/O, a lock or an endless loop in"
							+ " workflow code (use activities and Workflows.* calls)", null));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.commands.failTask(new WorkflowTaskFailedException("Interrupted", ex));
		}
		finally {
			WorkflowThread.unbind();
		}
		if (this.commands.fatal() != null) {
			RuntimeException failure = this.commands.fatal();
			throw (failure instanceof WorkflowTaskFailedException) ? failure
					: new WorkflowTaskFailedException(failure.getMessage(), failure);
		}
		if (this.commands.closeEvent() != null) {
			this.unfinishedHandlers = (int) this.scheduler.count(Coroutine::isHandler);
			this.scheduler.destroyAll();
		}
	}

	private void bindEngineThread() {
		WorkflowThread.bind(this, null);
	}

	/**
	 * What counts the attempts of an activity the workflow cancels in a new task (the
	 * node that runs the run's tasks knows its running attempts); a runner that only
	 * replays needs none.
	 */
	public void countActivityAttemptsWith(ActivityAttempts attempts) {
		this.activityAttempts = attempts;
	}

	/** Ends every workflow thread; the runner is unusable afterwards. */
	public void destroy() {
		this.scheduler.destroyAll();
	}

	// ---- the run's main method
	// ---------------------------------------------------------------

	/**
	 * Runs code that must not block or issue commands (init, update validators, queries).
	 */
	<T> T inReadOnlyMode(ReadOnlyCall<T> call) throws InvocationTargetException {
		return ReadOnlyCall.run(this, this.commands, call);
	}

	/**
	 * Runs a query handler against the current state; records nothing.
	 * @throws InvocationTargetException when the handler threw
	 */
	public byte[] query(String name, byte[] argument) throws InvocationTargetException {
		if (this.instance == null) {
			throw new IllegalStateException("Run " + this.identity.runId() + " has not started yet");
		}
		return inReadOnlyMode(() -> this.messages.query(name, argument));
	}

	void recordUpdateCompleted(String updateId, byte[] result, FailureInfo failure) {
		this.messages.completed(emit(Event.updateCompleted(updateId, result, failure)));
	}

	Object instance() {
		return this.instance;
	}

	MessageStates messages() {
		return this.messages;
	}

	void closeWithFailure(Throwable thrown) {
		this.main.closeWithFailure(thrown);
	}

	/** Whether a cancellation of the run was requested. */
	boolean isCancelRequested() {
		return this.rootScope.isCancelRequested();
	}

	/** Closes the run CANCELED (a continue-as-new after the cancel request does). */
	void closeCanceled() {
		this.main.closeCanceled();
	}

	void emitCanceledClose(Event canceled) {
		this.commands.emitCanceledClose(canceled);
	}

	void coroutineFailed(Coroutine coroutine, Throwable thrown) {
		if (thrown instanceof ContinueAsNewError) {
			return;
		}
		this.commands.failTask((thrown instanceof RuntimeException re) ? re
				: new WorkflowTaskFailedException("Workflow code threw " + thrown, thrown));
	}

	Coroutine spawn(String name, CancellationScopeImpl scope, Runnable body) {
		Coroutine coroutine = new Coroutine(name, this, scope, body, false);
		this.scheduler.add(coroutine);
		return coroutine;
	}

	/** Starts a message handler thread; it runs before the main method resumes. */
	void spawnHandler(String name, Runnable body) {
		this.scheduler.addFirst(new Coroutine(name, this, this.rootScope, body, true));
	}

	<E extends Event> E emit(E command) {
		return this.commands.emit(command);
	}

	/**
	 * Buffered signals not yet received, by name, oldest first: they move to the next
	 * run.
	 */
	public Map<String, List<byte[]>> unreceivedSignals() {
		return this.messages.unreceived();
	}

	// ---- state for the engine
	// ---------------------------------------------------------------

	public RunIdentity identity() {
		return this.identity;
	}

	public String workflowId() {
		return this.identity.workflowId();
	}

	public UUID runId() {
		return this.identity.runId();
	}

	/** The current task's recorded time. */
	public Instant now() {
		return this.taskTime;
	}

	public boolean isReplaying() {
		return this.commands.isReplaying();
	}

	public int historySeq() {
		return this.historySeq;
	}

	/** What the workflow code of this run calls ({@code Workflows.*}). */
	public WorkflowContext context() {
		return this.context;
	}

	/**
	 * Whether a history of this length (and the run's stored bytes) should continue as
	 * new.
	 */
	boolean continueAsNewSuggested(long historyLength) {
		return this.historyLimits.suggests(historyLength, this.historyBytes);
	}

	/** The run's memo and search attributes (the task commit reads them). */
	public VisibilityStates visibility() {
		return this.visibility;
	}

	/** Events recorded so far, including the current task's. */
	public long historyLength() {
		return this.eventCount + (this.commands.isReplaying() ? 0 : this.commands.producedCount());
	}

	/** Counts a committed task's stored size. */
	public void addHistoryBytes(int bytes) {
		this.historyBytes += bytes;
	}

	/** Whether the history is past the hard limit: the run must be terminated. */
	public boolean historyExceeded() {
		return this.historyLimits.exceeded(this.eventCount, this.historyBytes);
	}

	public boolean isClosed() {
		return this.commands.closeEvent() != null;
	}

	/** Timers still pending, with their fire times. */
	public Map<Long, Instant> pendingTimers() {
		return this.timers.fireTimes();
	}

	/**
	 * Whether the run awaits an inline activity (the run row's {@code has_activities}: a
	 * run whose owner is gone is claimed to run them again; task-queue activities need no
	 * owner).
	 */
	public boolean hasPendingInlineActivities() {
		return this.activities.hasPendingInline();
	}

	/** Whether the code ever started a child workflow (in this run, replay included). */
	public boolean hasStartedChildren() {
		return this.children.startedAny();
	}

	/** Whether the activity is still awaited (neither completed, failed nor canceled). */
	public boolean isActivityPending(long seq) {
		return this.activities.isPending(seq);
	}

	/** The pending activities with what they were scheduled with. */
	public java.util.List<ScheduledActivity> pendingScheduledActivities() {
		return this.activities.pendingScheduled();
	}

	/**
	 * What the run's code waits for now, as its state holds it: its durable timers,
	 * children, the signals it receives by name, the events it awaits on topics, and the
	 * conditions its coroutines await (with the line of the workflow code). Activities,
	 * queues and pauses are the database's to tell. Under the task lock or on a runner of
	 * its own.
	 */
	public List<RunWait> waitingOn() {
		List<RunWait> waits = new java.util.ArrayList<>();
		this.timers.fireTimes()
			.forEach((seq, fireAt) -> waits
				.add(new RunWait(RunWait.Kind.TIMER, "timer " + seq, fireAt, null, null, null)));
		this.children.pendingWorkflowIds()
			.forEach((id) -> waits.add(new RunWait(RunWait.Kind.CHILD, id, null, null, null, null)));
		this.messages.receiving()
			.forEach((name) -> waits.add(new RunWait(RunWait.Kind.SIGNAL, name, null, null, null, null)));
		waits.addAll(this.topics.waiting());
		waits.addAll(CodeWaits.conditions(this.scheduler.live()));
		return waits;
	}

	/** What the code last set with Workflows.setCurrentDetails, or {@code null}. */
	public String currentDetails() {
		return this.currentDetails;
	}

	void currentDetails(String details) {
		this.currentDetails = details;
	}

	/** The earliest pending timer, or {@code null}. */
	public Instant nextTimer() {
		return this.timers.next();
	}

}
