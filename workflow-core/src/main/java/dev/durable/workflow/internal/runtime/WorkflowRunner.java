package dev.durable.workflow.internal.runtime;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.durable.workflow.ActivityFailure;
import dev.durable.workflow.ActivityOptions;
import dev.durable.workflow.CanceledFailure;
import dev.durable.workflow.NonDeterministicWorkflowException;
import dev.durable.workflow.PayloadException;
import dev.durable.workflow.Promise;
import dev.durable.workflow.WorkflowException;
import dev.durable.workflow.WorkflowInfo;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.EventType;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.support.Payloads;

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

	private final Function<Class<?>, Object> factory;

	private final Payloads payloads;

	private final DeterministicScheduler scheduler;

	private final CancellationScopeImpl rootScope = new CancellationScopeImpl(null, null);

	private final Map<Long, PendingActivity> activities = new LinkedHashMap<>();

	private final Map<Long, PendingTimer> timers = new LinkedHashMap<>();

	private final Map<String, Integer> versions = new HashMap<>();

	private final Random random;

	private long nextSeq = 1;

	private int historySeq;

	private long eventCount;

	private Instant taskTime = Instant.EPOCH;

	private boolean replaying;

	private Deque<Event> expected = new ArrayDeque<>();

	private List<Event> produced = new ArrayList<>();

	private Event closeEvent;

	private RuntimeException fatal;

	private boolean started;

	record PendingActivity(long seq, String name, Type resultType, PromiseImpl<Object> promise,
			CancellationScopeImpl scope, Runnable cancelHook) {
	}

	record PendingTimer(long seq, Instant fireAt, PromiseImpl<Void> promise, CancellationScopeImpl scope,
			Runnable cancelHook) {
	}

	public WorkflowRunner(RunIdentity identity, WorkflowDefinition definition, Function<Class<?>, Object> factory,
			Payloads payloads, Duration taskTimeout) {
		this.identity = identity;
		this.definition = definition;
		this.factory = factory;
		this.payloads = payloads;
		this.scheduler = new DeterministicScheduler(taskTimeout.toMillis());
		UUID runId = identity.runId();
		this.random = new Random(runId.getMostSignificantBits() ^ runId.getLeastSignificantBits());
	}

	// ---- driven by the engine -------------------------------------------------------------

	/**
	 * Re-executes one recorded task, requiring the same commands.
	 * @return the commands the code issued, as it issued them
	 */
	public List<Event> replay(TaskRecord record) {
		this.replaying = true;
		this.expected = new ArrayDeque<>(record.commands());
		this.produced = new ArrayList<>();
		this.taskTime = record.time();
		for (Event input : record.inputs()) {
			applyInput(input);
		}
		runCode();
		if (!this.expected.isEmpty()) {
			throw failTask(new NonDeterministicWorkflowException("Workflow task " + record.seq() + " of run "
					+ this.identity.runId() + ": history holds " + this.expected.peek().describe()
					+ " but the workflow code did not issue it"));
		}
		this.historySeq = record.seq();
		this.eventCount += record.events().size();
		return List.copyOf(this.produced);
	}

	/** Executes a new task with the given candidate inputs; stale inputs are dropped. */
	public TaskResult execute(Instant now, List<Event> candidates) {
		this.replaying = false;
		this.expected = new ArrayDeque<>();
		this.produced = new ArrayList<>();
		if (now.isAfter(this.taskTime)) {
			this.taskTime = now;
		}
		List<Event> accepted = new ArrayList<>();
		for (Event input : candidates) {
			if (applyInput(input)) {
				accepted.add(input);
			}
		}
		runCode();
		this.historySeq++;
		this.eventCount += accepted.size() + this.produced.size();
		return new TaskResult(accepted, List.copyOf(this.produced));
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
					startMain(input.payload());
				}
				case ACTIVITY_COMPLETED, ACTIVITY_FAILED -> {
					PendingActivity activity = this.activities.remove(input.seq());
					if (activity == null) {
						return false;
					}
					activity.scope().removeHook(activity.cancelHook());
					if (input.type() == EventType.ACTIVITY_COMPLETED) {
						try {
							activity.promise().complete(this.payloads.decode(input.payload(), activity.resultType(),
									"the result of activity " + activity.name()));
						}
						catch (PayloadException ex) {
							activity.promise().fail(ex);
						}
					}
					else {
						activity.promise().fail(Failures.toException(input.failure(), this.payloads.converter()));
					}
				}
				case TIMER_FIRED -> {
					PendingTimer timer = this.timers.remove(input.seq());
					if (timer == null) {
						return false;
					}
					timer.scope().removeHook(timer.cancelHook());
					timer.promise().complete(null);
				}
				case CANCEL_REQUESTED -> this.rootScope.cancel(input.reason());
				default -> throw new IllegalArgumentException("Not an input: " + input.type());
			}
			return true;
		}
		finally {
			WorkflowThread.unbind();
		}
	}

	private void runCode() {
		bindEngineThread();
		try {
			boolean inTime = this.scheduler.runUntilBlocked(() -> this.fatal != null || this.closeEvent != null);
			if (!inTime) {
				this.fatal = new WorkflowTaskFailedException("A workflow thread of run " + this.identity.runId()
						+ " did not yield within the task timeout: blocking I/O, a lock or an endless loop in"
						+ " workflow code (use activities and Workflows.* calls)", null);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.fatal = new WorkflowTaskFailedException("Interrupted", ex);
		}
		finally {
			WorkflowThread.unbind();
		}
		if (this.fatal != null) {
			RuntimeException failure = this.fatal;
			throw (failure instanceof WorkflowTaskFailedException) ? failure
					: new WorkflowTaskFailedException(failure.getMessage(), failure);
		}
		if (this.closeEvent != null) {
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

	private void startMain(byte[] inputPayload) {
		spawn("main", this.rootScope, () -> {
			Object instance = this.factory.apply(this.definition.workflowClass());
			Object[] args = (this.definition.inputType() != null) ? new Object[] {
					this.payloads.decode(inputPayload, this.definition.inputType(), "the workflow input") }
					: new Object[0];
			Object result;
			try {
				if (this.definition.initMethod() != null) {
					this.definition.initMethod().invoke(instance, args);
				}
				result = this.definition.runMethod().invoke(instance, args);
			}
			catch (InvocationTargetException ex) {
				closeWithFailure(ex.getTargetException());
				return;
			}
			catch (IllegalAccessException ex) {
				throw new IllegalStateException(ex);
			}
			byte[] encoded = this.payloads.encode(result, this.definition.resultType(), "the workflow result");
			emit(Event.completed(encoded));
		});
	}

	private void closeWithFailure(Throwable thrown) {
		if (thrown instanceof Coroutine.DestroyWorkflowThreadError error) {
			throw error;
		}
		if (thrown instanceof CanceledFailure && this.rootScope.isCancelRequested()) {
			emit(Event.failed(EventType.WORKFLOW_CANCELED, FailureInfo.canceled(this.rootScope.reason())));
		}
		else if (thrown instanceof WorkflowException && !(thrown instanceof NonDeterministicWorkflowException)
				&& !(thrown instanceof PayloadException) && !(thrown instanceof WorkflowTaskFailedException)) {
			emit(Event.failed(EventType.WORKFLOW_FAILED, Failures.toInfo(thrown, this.payloads.converter())));
		}
		else {
			// not a workflow failure on purpose: fail the task so that a code fix can let the run continue
			coroutineFailed(null, thrown);
		}
	}

	void coroutineFailed(Coroutine coroutine, Throwable thrown) {
		if (this.fatal == null) {
			this.fatal = (thrown instanceof RuntimeException re) ? re
					: new WorkflowTaskFailedException("Workflow code threw " + thrown, thrown);
		}
	}

	private Coroutine spawn(String name, CancellationScopeImpl scope, Runnable body) {
		Coroutine coroutine = new Coroutine(name, this, scope, body);
		this.scheduler.add(coroutine);
		return coroutine;
	}

	// ---- commands ----------------------------------------------------------------------------

	/** Records a command; on replay, checks it against history and returns the recorded event. */
	private Event emit(Event command) {
		if (!this.replaying) {
			this.produced.add(command);
			if (command.type().closesRun()) {
				this.closeEvent = command;
			}
			return command;
		}
		this.produced.add(command);
		Event recorded = this.expected.poll();
		if (recorded == null || !recorded.sameCommand(command)) {
			throw failTask(new NonDeterministicWorkflowException("Run " + this.identity.runId() + " issued "
					+ command.describe() + " where its history holds "
					+ ((recorded != null) ? recorded.describe() : "nothing more in this task")
					+ ": the workflow code changed incompatibly; guard the change with Workflows.getVersion"));
		}
		if (recorded.type().closesRun()) {
			this.closeEvent = recorded;
		}
		return recorded;
	}

	private RuntimeException failTask(RuntimeException failure) {
		if (this.fatal == null) {
			this.fatal = failure;
		}
		return failure;
	}

	public Promise<Object> scheduleActivity(String name, byte[] args, Type resultType, ActivityOptions options) {
		checkOpen();
		long seq = this.nextSeq++;
		emit(Event.activityScheduled(seq, name, args, options));
		PromiseImpl<Object> promise = new PromiseImpl<>();
		CancellationScopeImpl scope = WorkflowThread.coroutine().currentScope();
		Runnable[] hook = new Runnable[1];
		hook[0] = () -> {
			if (this.activities.remove(seq) != null) {
				emit(Event.of(EventType.ACTIVITY_CANCEL_REQUESTED, seq));
				promise.fail(new ActivityFailure(name, seq, 0, new CanceledFailure(scope.reason())));
			}
		};
		this.activities.put(seq, new PendingActivity(seq, name, resultType, promise, scope, hook[0]));
		scope.onCancel(hook[0]);
		return promise;
	}

	public Promise<Void> newTimer(Duration duration) {
		checkOpen();
		PromiseImpl<Void> promise = new PromiseImpl<>();
		CancellationScopeImpl scope = WorkflowThread.coroutine().currentScope();
		if (duration.isNegative() || duration.isZero()) {
			promise.complete(null);
			return promise;
		}
		long seq = this.nextSeq++;
		Event recorded = emit(Event.timerStarted(seq, this.taskTime.plus(duration)));
		Runnable hook = () -> cancelTimer(seq, scope.reason());
		this.timers.put(seq, new PendingTimer(seq, recorded.fireAt(), promise, scope, hook));
		scope.onCancel(hook);
		return promise;
	}

	private void cancelTimer(long seq, String reason) {
		PendingTimer timer = this.timers.remove(seq);
		if (timer != null) {
			timer.scope().removeHook(timer.cancelHook());
			emit(Event.of(EventType.TIMER_CANCELED, seq));
			timer.promise().fail(new CanceledFailure(reason));
		}
	}

	public void await(Supplier<Boolean> condition) {
		Coroutine coroutine = WorkflowThread.coroutine();
		CancellationScopeImpl scope = coroutine.currentScope();
		coroutine.await(() -> condition.get() || scope.isCancelRequested());
		if (!condition.get()) {
			throw new CanceledFailure(scope.reason());
		}
	}

	public boolean await(Duration timeout, Supplier<Boolean> condition) {
		if (condition.get()) {
			return true;
		}
		Coroutine coroutine = WorkflowThread.coroutine();
		CancellationScopeImpl scope = coroutine.currentScope();
		Promise<Void> timer = newTimer(timeout);
		coroutine.await(() -> condition.get() || timer.isCompleted() || scope.isCancelRequested());
		if (condition.get()) {
			if (!timer.isCompleted()) {
				this.timers.values().stream().filter((t) -> t.promise() == timer).findFirst()
						.ifPresent((t) -> cancelTimer(t.seq(), "condition met"));
			}
			return true;
		}
		if (timer.isCompleted() && timer.getFailure() == null) {
			return false;
		}
		throw new CanceledFailure(scope.reason());
	}

	public <T> T sideEffect(Type type, Supplier<T> supplier) {
		checkOpen();
		long seq = this.nextSeq++;
		byte[] encoded = null;
		if (!this.replaying) {
			encoded = this.payloads.encode(supplier.get(), type, "a side effect value");
		}
		Event recorded = emit(Event.sideEffect(seq, encoded));
		@SuppressWarnings("unchecked")
		T value = (T) this.payloads.decode(recorded.payload(), type, "a side effect value");
		return value;
	}

	public int getVersion(String changeId, int minSupported, int maxSupported) {
		Integer version = this.versions.get(changeId);
		if (version == null) {
			if (this.replaying) {
				Event next = this.expected.peek();
				if (next != null && next.type() == EventType.VERSION_MARKER && changeId.equals(next.name())) {
					version = this.expected.poll().version();
					this.produced.add(next);
				}
				else {
					version = DEFAULT_VERSION;
				}
			}
			else {
				version = maxSupported;
				emit(Event.versionMarker(changeId, maxSupported));
			}
			this.versions.put(changeId, version);
		}
		if (version < minSupported || version > maxSupported) {
			throw failTask(new NonDeterministicWorkflowException("Version " + version + " of change '" + changeId
					+ "' recorded in run " + this.identity.runId() + " is outside the supported range ["
					+ minSupported + ", " + maxSupported + "]"));
		}
		return version;
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
				if (ex == this.fatal) {
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
		if (this.closeEvent != null) {
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
		return this.random;
	}

	public boolean isReplaying() {
		return this.replaying;
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
				this.eventCount + (this.replaying ? 0 : this.produced.size()), false);
	}

	public boolean isClosed() {
		return this.closeEvent != null;
	}

	/** Timers still pending, with their fire times. */
	public Map<Long, Instant> pendingTimers() {
		Map<Long, Instant> result = new LinkedHashMap<>();
		this.timers.values().forEach((t) -> result.put(t.seq(), t.fireAt()));
		return result;
	}

	/** Sequence numbers of activities still pending. */
	public java.util.Set<Long> pendingActivities() {
		return java.util.Set.copyOf(this.activities.keySet());
	}

	/** The earliest pending timer, or {@code null}. */
	public Instant nextTimer() {
		return this.timers.values().stream().map(PendingTimer::fireAt).min(Instant::compareTo).orElse(null);
	}

}
