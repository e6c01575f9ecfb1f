package dev.durable.workflow.internal.runtime;

import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.ChildHandle;
import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.EventMatch;
import dev.durable.workflow.Promise;
import dev.durable.workflow.TopicEvent;
import dev.durable.workflow.WorkflowInfo;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.support.Attributes;
import dev.durable.workflow.internal.support.Payloads;

/**
 * What workflow code reaches through {@code Workflows.*}: the run's recorded time and
 * random values, its timers, activities, children, signals and markers. Each call either
 * reads the run's state or issues a command, numbered in issue order, that the
 * {@link WorkflowRunner} records (or, on replay, matches against the recorded one).
 */
public final class WorkflowContext {

	/** What {@code getVersion} returns for code that ran before the change existed. */
	public static final int DEFAULT_VERSION = -1;

	private final WorkflowRunner runner;

	private final RunIdentity identity;

	private final WorkflowDefinition definition;

	private final Payloads payloads;

	private final DeterministicScheduler scheduler;

	private final CommandRecorder commands;

	private final TimerStates timers;

	private final ActivityStates activities;

	private final MarkerStates markers;

	private final LocalActivities locals;

	private final ChildStates children;

	private final VisibilityStates visibility;

	private final MessageStates messages;

	private final OutputStates outputs;

	private final TopicWaits topics;

	private final Random random;

	/**
	 * The sequence number of the next command that needs one (timers, activities,
	 * markers, children).
	 */
	private long nextSeq = 1;

	WorkflowContext(WorkflowRunner runner, RunIdentity identity, WorkflowDefinition definition, Payloads payloads,
			DeterministicScheduler scheduler, CommandRecorder commands, TimerStates timers, ActivityStates activities,
			MarkerStates markers, LocalActivities locals, ChildStates children, VisibilityStates visibility,
			MessageStates messages, TopicWaits topics, Random random) {
		this.runner = runner;
		this.identity = identity;
		this.definition = definition;
		this.payloads = payloads;
		this.scheduler = scheduler;
		this.commands = commands;
		this.timers = timers;
		this.activities = activities;
		this.markers = markers;
		this.locals = locals;
		this.children = children;
		this.visibility = visibility;
		this.messages = messages;
		this.topics = topics;
		this.random = random;
		this.outputs = new OutputStates(commands, identity.runId(), payloads);
	}

	// ---- commands
	// ----------------------------------------------------------------------------

	public Promise<Object> scheduleActivity(String name, byte[] args, Type resultType, ActivityOptions options) {
		checkOpen();
		CancellationScopeImpl scope = WorkflowThread.coroutine().currentScope();
		return this.activities.schedule(this.nextSeq++, name, args, resultType, options, scope, now());
	}

	public Promise<Void> newTimer(Duration duration) {
		checkOpen();
		CancellationScopeImpl scope = WorkflowThread.coroutine().currentScope();
		if (duration.isNegative() || duration.isZero()) {
			PromiseImpl<Void> done = new PromiseImpl<>();
			done.complete(null);
			return done;
		}
		return this.timers.start(this.nextSeq++, now().plus(duration), scope);
	}

	public void await(Supplier<Boolean> condition) {
		Waits.await(condition);
	}

	public boolean await(Duration timeout, Supplier<Boolean> condition) {
		return Waits.await(timeout, condition, this::newTimer, this.timers);
	}

	/**
	 * Runs a local activity in this task (on replay, reads its outcome back); see
	 * {@link LocalActivities}.
	 */
	public Object executeLocalActivity(String name, byte[] args, Type resultType, ActivityOptions options) {
		checkOpen();
		return this.locals.execute(this.nextSeq++, name, args, resultType, options, now());
	}

	/** Workflows.awaitEvent: see {@link TopicWaits}. */
	public <T> Optional<TopicEvent<T>> awaitEvent(String topic, EventMatch match, Type type, Duration timeout) {
		checkOpen();
		this.commands.checkNotReadOnly("await an event");
		return this.topics.await(this.nextSeq++, topic, match, type, timeout, this);
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
	public <R> ChildHandle<R> startChild(WorkflowDefinition child, Object input, ChildOptions options) {
		checkOpen();
		return this.children.start(this.nextSeq++, child, input, options, this.identity.workflowId(), this.random);
	}

	/**
	 * Signals (signalName set) or cancels another workflow, pinned to a run when runId is
	 * given. The promise completes once delivered, or fails when no such open run exists.
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
		byte[] encoded = this.payloads.encode(input, inputType, "the continue-as-new input");
		if (this.runner.isCancelRequested()) {
			// the next run would not know of the cancel request: this run ends canceled
			// instead
			this.runner.closeCanceled();
		}
		else {
			this.commands.emit(Event.continuedAsNew(encoded));
		}
		throw new ContinueAsNewError();
	}

	public <T> Optional<T> receive(String signalName, Type type, Duration timeout) {
		return this.messages.receive(signalName, type, timeout);
	}

	public <T> Promise<T> signalPromise(String signalName, Type type) {
		return this.messages.signalPromise(signalName, type);
	}

	public <T> Promise<T> async(Supplier<T> body) {
		checkOpen();
		Coroutine parent = WorkflowThread.coroutine();
		PromiseImpl<T> promise = new PromiseImpl<>();
		this.runner.spawn("async-" + this.scheduler.size(), parent.currentScope(), () -> {
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

	// ---- the run's state
	// ---------------------------------------------------------------------

	/** The current task's recorded time. */
	public Instant now() {
		return this.runner.now();
	}

	public Random random() {
		this.commands.checkNotReadOnly("use Workflows.random()");
		return this.random;
	}

	public boolean isReplaying() {
		return this.commands.isReplaying();
	}

	/** Whether no signal or update handler is still running. */
	public boolean allHandlersFinished() {
		return this.scheduler.count(Coroutine::isHandler) == 0;
	}

	public Payloads payloads() {
		return this.payloads;
	}

	public WorkflowInfo info() {
		long length = this.runner.historyLength();
		return new WorkflowInfo(this.identity.namespace(), this.identity.workflowId(), this.identity.runId(),
				this.identity.workflowType(), this.identity.taskQueue(), length,
				this.runner.continueAsNewSuggested(length), Attributes.searchView(this.visibility.searchAttributes()),
				Collections.unmodifiableMap(this.visibility.memo()));
	}

	/** The run's events and streams (Workflows.setEvent, Workflows.stream). */
	public OutputStates outputs() {
		return this.outputs;
	}

	/** The run's memo and search attributes (Workflows.upsert*). */
	public VisibilityStates visibility() {
		return this.visibility;
	}

	/**
	 * Workflows.setCurrentDetails: kept in the run's state only, rebuilt by replay as the
	 * code sets it again, so it costs no history record; read as a query is.
	 */
	public void setCurrentDetails(@Nullable String details) {
		if (details != null && details.length() > StartOptions.MAX_DETAILS_LENGTH) {
			throw new IllegalArgumentException("The current details have " + details.length() + " characters; at most "
					+ StartOptions.MAX_DETAILS_LENGTH + " are kept");
		}
		this.runner.currentDetails(details);
	}

}
