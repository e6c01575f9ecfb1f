package dev.durable.workflow.internal.runtime;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.durable.workflow.ActivityOptions;
import dev.durable.workflow.NonDeterministicWorkflowException;
import dev.durable.workflow.Promise;
import dev.durable.workflow.WorkflowInfo;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.EventType;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.config.EngineConfig;

/**
 * The in-memory state machine of one run: applies a task's inputs, runs the workflow code until
 * it blocks, and collects the commands it issued. On replay the commands are matched against the
 * recorded ones; any difference is a {@link NonDeterministicWorkflowException}.
 */
public final class WorkflowRunner {

	/** What {@code getVersion} returns for code that ran before the change existed. */
	public static final int DEFAULT_VERSION = -1;

	private final RunIdentity identity;

	private final WorkflowDefinition definition;


	private final Payloads payloads;

	private final DeterministicScheduler scheduler;

	private final CancellationScopeImpl rootScope = new CancellationScopeImpl(null, null);

	private final CommandRecorder commands;

	private final TimerStates timers;

	private final ActivityStates activities;

	private final MarkerStates markers;

	private final ChildStates children;

	private final VisibilityStates visibility;

	private final MainMethod main;

	private final Random random;

	private long nextSeq = 1;

	private int historySeq;

	private long eventCount;

	private long historyBytes;

	private final EngineConfig.HistoryLimits historyLimits;

	private Instant taskTime = Instant.EPOCH;

	private boolean started;

	private Object instance;

	private int unfinishedHandlers;

	private final MessageStates messages;

	public WorkflowRunner(RunIdentity identity, WorkflowDefinition definition, Function<Class<?>, Object> factory,
			Payloads payloads, Duration taskTimeout, EngineConfig.HistoryLimits historyLimits) {
		this.historyLimits = historyLimits;
		this.identity = identity;
		this.definition = definition;
		this.payloads = payloads;
		this.scheduler = new DeterministicScheduler(taskTimeout.toMillis());
		this.commands = new CommandRecorder(identity.runId());
		this.timers = new TimerStates(this.commands);
		this.activities = new ActivityStates(this.commands, payloads);
		this.messages = new MessageStates(this, definition.handlers(), payloads);
		this.markers = new MarkerStates(this.commands, payloads, identity.runId());
		this.children = new ChildStates(this.commands, payloads);
		this.visibility = new VisibilityStates(this.commands, identity.runId());
		this.main = new MainMethod(this, definition, factory, payloads, this.rootScope);
		UUID runId = identity.runId();
		this.random = new Random(seedOf(runId));
	}

	private static long seedOf(UUID runId) {
		return runId.getMostSignificantBits() ^ runId.getLeastSignificantBits();
	}

	// ---- driven by the engine -------------------------------------------------------------

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
			if (input.type() == EventType.UPDATE_ACCEPTED) {
				// a new update: its validator decides whether it enters history at all
				input = offerUpdate(input);
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
			switch (input.type()) {
				case WORKFLOW_STARTED -> {
					if (this.started) {
						return false;
					}
					this.started = true;
					if (input.messageId() != null) {
						// a reset run replays history first run by another run: use that run's seed
						this.random.setSeed(seedOf(UUID.fromString(input.messageId())));
					}
					this.instance = this.main.start(input.payload());
				}
				case ACTIVITY_COMPLETED, ACTIVITY_FAILED -> {
					return this.activities.resolve(input);
				}
				case TIMER_FIRED -> {
					return this.timers.fire(input.seq());
				}
				case CANCEL_REQUESTED -> this.rootScope.cancel(input.reason());
				case CHILD_STARTED, CHILD_START_FAILED, CHILD_CLOSED -> {
					return this.children.apply(input);
				}
				case EXTERNAL_DELIVERED -> {
					return this.children.delivered(input);
				}
				case WORKFLOW_ATTRIBUTES -> this.visibility.started(input);
				case SIGNAL_RECEIVED -> this.messages.signal(input);
				case UPDATE_ACCEPTED -> this.messages.accepted(input);
				default -> throw new IllegalArgumentException("Not an input: " + input.type());
			}
			return true;
		}
		finally {
			WorkflowThread.unbind();
		}
	}

	private Event offerUpdate(Event candidate) {
		if (this.instance == null || isClosed()) {
			this.messages.reject(candidate.messageId(), "WorkflowClosed",
					"Run " + this.identity.runId() + " is closing and accepts no update");
			return null;
		}
		bindEngineThread();
		try {
			return this.messages.offerUpdate(candidate.messageId(), candidate.name(), candidate.payload());
		}
		finally {
			WorkflowThread.unbind();
		}
	}

	private void runCode() {
		bindEngineThread();
		try {
			boolean inTime = this.scheduler
				.runUntilBlocked(() -> this.commands.fatal() != null || this.commands.closeEvent() != null);
			if (!inTime) {
				this.commands.failTask(new WorkflowTaskFailedException("A workflow thread of run " + this.identity.runId()
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

	/** Ends every workflow thread; the runner is unusable afterwards. */
	public void destroy() {
		this.scheduler.destroyAll();
	}

	// ---- the run's main method ---------------------------------------------------------------

	/** Runs code that must not block or issue commands (init, update validators, queries). */
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

	/** Whether no signal or update handler is still running. */
	public boolean allHandlersFinished() {
		return this.scheduler.count(Coroutine::isHandler) == 0;
	}

	// ---- commands ----------------------------------------------------------------------------

	Event emit(Event command) {
		return this.commands.emit(command);
	}

	public Promise<Object> scheduleActivity(String name, byte[] args, Type resultType, ActivityOptions options) {
		checkOpen();
		CancellationScopeImpl scope = WorkflowThread.coroutine().currentScope();
		return this.activities.schedule(this.nextSeq++, name, args, resultType, options, scope, this.taskTime);
	}

	public Promise<Void> newTimer(Duration duration) {
		checkOpen();
		CancellationScopeImpl scope = WorkflowThread.coroutine().currentScope();
		if (duration.isNegative() || duration.isZero()) {
			PromiseImpl<Void> done = new PromiseImpl<>();
			done.complete(null);
			return done;
		}
		return this.timers.start(this.nextSeq++, this.taskTime.plus(duration), scope);
	}

	public void await(Supplier<Boolean> condition) {
		Waits.await(condition);
	}

	public boolean await(Duration timeout, Supplier<Boolean> condition) {
		return Waits.await(timeout, condition, this::newTimer, this.timers);
	}

	public <T> T sideEffect(Type type, Supplier<T> supplier) {
		checkOpen();
		return this.markers.sideEffect(this.nextSeq++, type, supplier);
	}

	public int getVersion(String changeId, int minSupported, int maxSupported) {
		this.commands.checkNotReadOnly("call getVersion");
		return this.markers.getVersion(changeId, minSupported, maxSupported);
	}

	/** Starts a child workflow; its start and result arrive as inputs of later tasks. */
	public <R> dev.durable.workflow.ChildHandle<R> startChild(WorkflowDefinition child, Object input,
			dev.durable.workflow.ChildOptions options) {
		checkOpen();
		return this.children.start(this.nextSeq++, child, input, options, this.identity.workflowId(), this.random);
	}

	/**
	 * Signals (signalName set) or cancels another workflow, pinned to a run when runId is given.
	 * The promise completes once delivered, or fails when no such open run exists.
	 */
	public Promise<Void> external(String workflowId, String runId, String signalName, Object payload) {
		checkOpen();
		return this.children.external(this.nextSeq++, workflowId, runId, signalName, payload);
	}

	/** Closes the run and starts the next one of the same workflow id with this input. */
	public void continueAsNew(Object input) {
		checkOpen();
		Type inputType = (this.definition.inputType() != null) ? this.definition.inputType() : Object.class;
		if (this.definition.inputType() == null && input != null) {
			throw new IllegalArgumentException("Workflow type " + this.identity.workflowType() + " takes no input");
		}
		emit(Event.continuedAsNew(this.payloads.encode(input, inputType, "the continue-as-new input")));
		throw new ContinueAsNewError();
	}

	/** Buffered signals not yet received, by name, oldest first: they move to the next run. */
	public Map<String, List<byte[]>> unreceivedSignals() {
		return this.messages.unreceived();
	}

	public <T> java.util.Optional<T> receive(String signalName, Type type, Duration timeout) {
		return this.messages.receive(signalName, type, timeout);
	}

	public <T> Promise<T> signalPromise(String signalName, Type type) {
		return this.messages.signalPromise(signalName, type);
	}

	public <T> Promise<T> async(Supplier<T> body) {
		checkOpen();
		Coroutine parent = WorkflowThread.coroutine();
		PromiseImpl<T> promise = new PromiseImpl<>();
		spawn("async-" + this.scheduler.size(), parent.currentScope(), () -> {
			try {
				promise.complete(body.get());
			}
			catch (RuntimeException ex) {
				if (ex == this.commands.fatal()) {
					throw ex;
				}
				promise.fail(ex);
			}
		});
		return promise;
	}

	public CancellationScopeImpl newScope(Runnable body, boolean detached) {
		Coroutine coroutine = WorkflowThread.coroutine();
		return new CancellationScopeImpl(detached ? null : coroutine.currentScope(), body);
	}

	private void checkOpen() {
		this.commands.checkNotReadOnly("block, schedule work or record values");
		if (this.commands.closeEvent() != null) {
			throw new IllegalStateException("Run " + this.identity.runId() + " is already closing");
		}
	}

	// ---- state for the engine and Workflows.* --------------------------------------------------

	public RunIdentity identity() {
		return this.identity;
	}

	public String workflowId() {
		return this.identity.workflowId();
	}

	public UUID runId() {
		return this.identity.runId();
	}

	public Instant now() {
		return this.taskTime;
	}

	public Random random() {
		this.commands.checkNotReadOnly("use Workflows.random()");
		return this.random;
	}

	public boolean isReplaying() {
		return this.commands.isReplaying();
	}

	public int historySeq() {
		return this.historySeq;
	}

	public Payloads payloads() {
		return this.payloads;
	}

	public WorkflowInfo info() {
		return new WorkflowInfo(this.identity.namespace(), this.identity.workflowId(), this.identity.runId(),
				this.identity.workflowType(), this.identity.taskQueue(),
				historyLength(), this.historyLimits.suggests(historyLength(), this.historyBytes),
				dev.durable.workflow.internal.support.Attributes.searchView(this.visibility.searchAttributes()),
				java.util.Collections.unmodifiableMap(this.visibility.memo()));
	}

	/** The run's memo and search attributes (Workflows.upsert*, the task commit). */
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

	/** Whether the run awaits any activity (the run row's {@code has_activities}). */
	public boolean hasPendingActivities() {
		return this.activities.hasPending();
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

	/** The earliest pending timer, or {@code null}. */
	public Instant nextTimer() {
		return this.timers.next();
	}

}
