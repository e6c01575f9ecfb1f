package dev.durable.workflow;

import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.CanceledFailure;
import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.internal.activity.ActivityStubs;
import dev.durable.workflow.internal.client.WorkflowDefinitions;
import dev.durable.workflow.internal.runtime.ReplayAwareLogger;
import dev.durable.workflow.internal.runtime.WorkflowContext;
import dev.durable.workflow.internal.runtime.WorkflowLockImpl;
import dev.durable.workflow.internal.runtime.WorkflowThread;

/**
 * The API of workflow code. Every method is valid only on a workflow's own threads (the
 * run method, async bodies and handlers); the results are recorded so that replay sees
 * the same values.
 */
public final class Workflows {

	/** What {@link #getVersion} returns for code that ran before the change existed. */
	public static final int DEFAULT_VERSION = WorkflowContext.DEFAULT_VERSION;

	private Workflows() {
	}

	private static WorkflowContext context() {
		return WorkflowThread.context();
	}

	/** Facts about the current run. */
	public static WorkflowInfo info() {
		return context().info();
	}

	/** The current workflow task's recorded time; monotonic within a run. */
	public static Instant now() {
		return context().now();
	}

	/** A random generator seeded by the run id: the same sequence on every replay. */
	public static Random random() {
		return context().random();
	}

	/** A UUID from {@link #random()}: the same on every replay. */
	public static UUID randomUUID() {
		Random random = random();
		long msb = (random.nextLong() & ~0xF000L) | 0x4000L;
		long lsb = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
		return new UUID(msb, lsb);
	}

	/**
	 * Sleeps durably: survives restarts; throws {@link CanceledFailure} if the scope is
	 * canceled.
	 */
	public static void sleep(Duration duration) {
		context().newTimer(duration).get();
	}

	/** A durable timer. */
	public static Promise<Void> newTimer(Duration duration) {
		return context().newTimer(duration);
	}

	/**
	 * Blocks durably until the condition holds; the condition must only read workflow
	 * state.
	 */
	public static void await(Supplier<Boolean> condition) {
		context().await(condition);
	}

	/**
	 * Blocks until the condition holds or the timeout passes. @return false on timeout
	 */
	public static boolean await(Duration timeout, Supplier<Boolean> condition) {
		return context().await(timeout, condition);
	}

	/**
	 * Runs the body on a new workflow thread; it interleaves deterministically with the
	 * others.
	 */
	public static <T> Promise<T> async(Supplier<T> body) {
		return context().async(body);
	}

	/** Runs the body on a new workflow thread. */
	public static Promise<Void> async(Runnable body) {
		return context().async(() -> {
			body.run();
			return null;
		});
	}

	/** Runs a short non-deterministic piece of code once and records its value. */
	public static <T> T sideEffect(Class<T> type, Supplier<T> supplier) {
		return context().sideEffect(type, supplier);
	}

	/** Like {@link #sideEffect(Class, Supplier)} for generic types. */
	public static <T> T sideEffect(Type type, Supplier<T> supplier) {
		return context().sideEffect(type, supplier);
	}

	/**
	 * Versions a change of workflow code. New runs get {@code maxSupported}; runs that
	 * passed this point before the change existed get {@link #DEFAULT_VERSION}.
	 */
	public static int getVersion(String changeId, int minSupported, int maxSupported) {
		return context().getVersion(changeId, minSupported, maxSupported);
	}

	/**
	 * Takes the oldest buffered signal of this name (signals without a handler queue FIFO
	 * per name), waiting durably until one arrives. The workflow type must declare the
	 * name, with {@code @Workflow(receives = "name")} or a {@code static final}
	 * {@link Signal} field, or clients cannot send it.
	 * @throws IllegalStateException when the name is not declared, which fails the
	 * workflow task
	 */
	public static <T> T receive(String signalName, Class<T> type) {
		return context().<T>receive(signalName, type, null).orElse(null);
	}

	/** Like {@link #receive(String, Class)} for generic payload types. */
	public static <T> T receive(String signalName, Type type) {
		return context().<T>receive(signalName, type, null).orElse(null);
	}

	/** Takes the oldest buffered signal of this name, waiting at most the timeout. */
	public static <T> Optional<T> receive(String signalName, Class<T> type, Duration timeout) {
		return context().receive(signalName, type, timeout);
	}

	/** Like {@link #receive(String, Class, Duration)} for generic payload types. */
	public static <T> Optional<T> receive(String signalName, Type type, Duration timeout) {
		return context().receive(signalName, type, timeout);
	}

	/**
	 * Takes the oldest buffered signal a {@link Signal} field of the workflow class
	 * declares, waiting durably until one arrives; its payload converted to the declared
	 * type.
	 */
	public static <T> T receive(Signal<T> signal) {
		return context().<T>receive(signal.name(), signal.payloadType(), null).orElse(null);
	}

	/**
	 * Takes the oldest buffered signal a {@link Signal} field declares, waiting at most
	 * the timeout. Empty on timeout (and for a signal sent without payload).
	 */
	public static <T> Optional<T> receive(Signal<T> signal, Duration timeout) {
		return context().receive(signal.name(), signal.payloadType(),
				java.util.Objects.requireNonNull(timeout, "timeout"));
	}

	/**
	 * {@link #signalPromise(String, Class)} of a signal a {@link Signal} field declares.
	 */
	public static <T> Promise<T> signalPromise(Signal<T> signal) {
		return context().signalPromise(signal.name(), signal.payloadType());
	}

	/**
	 * A promise of the next buffered signal of this name, taken only when
	 * {@link Promise#get()} is called: raced against a timer with {@link Promise#anyOf},
	 * a losing signal stays buffered.
	 */
	public static <T> Promise<T> signalPromise(String signalName, Class<T> type) {
		return context().signalPromise(signalName, type);
	}

	/** Like {@link #signalPromise(String, Class)} for generic payload types. */
	public static <T> Promise<T> signalPromise(String signalName, Type type) {
		return context().signalPromise(signalName, type);
	}

	/**
	 * Merges these search attributes into the run's: a key with a null value is removed,
	 * other keys are added or replaced. Recorded in history and written to the run's
	 * visibility row by the same transaction as the workflow task, so
	 * {@code WorkflowClient.list} sees them once the task commits. Values: String, Long,
	 * Integer, Double, Boolean, Instant, OffsetDateTime, or a List of those; keys of 1-64
	 * letters, digits and underscores.
	 * @throws IllegalArgumentException for a bad key or value (nothing is recorded;
	 * uncaught, it fails the workflow task)
	 */
	public static void upsertSearchAttributes(java.util.Map<String, ?> attributes) {
		context().visibility().upsertSearchAttributes(attributes);
	}

	/**
	 * Merges these values into the run's memo (shown by describe and list, not
	 * searchable): a key with a null value is removed. Recorded and committed like
	 * {@link #upsertSearchAttributes}.
	 * @throws IllegalArgumentException for a bad key or a value that cannot be written as
	 * JSON
	 */
	public static void upsertMemo(java.util.Map<String, ?> memo) {
		context().visibility().upsertMemo(memo);
	}

	/**
	 * Sets what the run is doing now, in words for people ("waiting for the warehouse to
	 * confirm 3 of 5 items"): shown on the run's page in the dashboard and answered by
	 * {@code WorkflowHandle.currentDetails()}. Kept in the run's state, not in its
	 * history: replay sets it again as the code runs, so it costs nothing durable and may
	 * change as often as needed. {@code null} clears it.
	 * @throws IllegalArgumentException when longer than 20,000 characters
	 */
	public static void setCurrentDetails(@Nullable String details) {
		context().setCurrentDetails(details);
	}

	/**
	 * Sets an event: a value under a key that clients read with
	 * {@code WorkflowHandle.getEvent} (waiting until it is set) or {@code GET
	 * /durable/workflows/{id}/events/{key}}. Setting a key again replaces its value.
	 * Recorded in history and stored by the same transaction as the workflow task, so
	 * clients see it once the task commits, and a replay stores nothing again.
	 * @param key 1-128 letters, digits and {@code ._:@-}
	 * @param value the value (not {@code null}), serialized by the payload converter
	 * @throws IllegalArgumentException for a bad key
	 * @throws PayloadException when the value cannot be serialized or is over the payload
	 * size limit
	 */
	public static void setEvent(String key, Object value) {
		context().outputs().setEvent(key, value);
	}

	/**
	 * Waits for the next event on a topic whose payload matches, as published with
	 * {@code WorkflowClient.publish}, {@code POST /durable/topics/{topic}/events} or the
	 * SQL function {@code publish_event}. One event resumes every run waiting for it,
	 * each once. The wait sees the events dispatched after it began (or after
	 * {@link EventMatch#after(long)}); the event is recorded in history, so a replay
	 * returns it again without waiting.
	 * @param topic the topic, 1-200 characters
	 * @param match the fields the payload must have ({@link EventMatch#any()}: every
	 * event)
	 * @param type the payload type
	 * @throws CanceledFailure when the wait's cancellation scope is canceled
	 */
	public static <T> TopicEvent<T> awaitEvent(String topic, EventMatch match, Class<T> type) {
		return context().<T>awaitEvent(topic, match, type, null).orElseThrow();
	}

	/**
	 * Waits for the next matching event on a topic, as
	 * {@link #awaitEvent(String, EventMatch, Class)}, for at most the timeout (a durable
	 * timer).
	 * @return the event, or empty when the timeout passed first
	 */
	public static <T> Optional<TopicEvent<T>> awaitEvent(String topic, EventMatch match, Class<T> type,
			Duration timeout) {
		java.util.Objects.requireNonNull(timeout, "timeout");
		return context().awaitEvent(topic, match, type, timeout);
	}

	/**
	 * Waits for the next matching event whose payload is of a generic type (a
	 * {@code ParameterizedType}); the caller states {@code T}.
	 */
	public static <T> Optional<TopicEvent<T>> awaitEvent(String topic, EventMatch match, Type type,
			@Nullable Duration timeout) {
		return context().awaitEvent(topic, match, type, timeout);
	}

	/**
	 * The run's stream of this key (the same object on every call): values written to it
	 * are read in order, from any offset, with {@code WorkflowHandle.readStream} or as
	 * Server-Sent Events at {@code GET /durable/workflows/{id}/streams/{key}}. See
	 * {@link WorkflowStream}.
	 * @param key 1-128 letters, digits and {@code ._:@-}
	 * @throws IllegalArgumentException for a bad key
	 */
	public static WorkflowStream stream(String key) {
		return context().outputs().stream(key);
	}

	/** A deterministic mutex for blocking handlers that share state. */
	public static WorkflowLock newLock() {
		context();
		return new WorkflowLockImpl();
	}

	/**
	 * Whether every signal and update handler has finished; await it before returning.
	 */
	public static boolean allHandlersFinished() {
		return context().allHandlersFinished();
	}

	/**
	 * Closes this run and starts a new run of the same workflow id with this input and a
	 * fresh history; signals buffered and not yet received move to the new run. Does not
	 * return. Call it from the main method after
	 * {@code Workflows.await(Workflows::allHandlersFinished)}, when
	 * {@code info().continueAsNewSuggested()} says the history grew large.
	 */
	public static void continueAsNew(@Nullable Object input) {
		context().continueAsNew(input);
	}

	/**
	 * Starts a child workflow named by its run method. A child whose workflow id is in
	 * use does not fail this task: its {@code started()} and {@code result()} fail with
	 * ChildWorkflowFailure.
	 */
	public static <W, A, R> ChildHandle<R> startChild(WorkflowMethodReference.Func1<W, A, R> workflow, A input,
			@Nullable ChildOptions options) {
		return context().startChild(WorkflowDefinitions.definition(workflow), input,
				(options != null) ? options : ChildOptions.DEFAULT);
	}

	/** Starts a child workflow whose run method takes no input. */
	public static <W, R> ChildHandle<R> startChild(WorkflowMethodReference.Func0<W, R> workflow,
			@Nullable ChildOptions options) {
		return context().startChild(WorkflowDefinitions.definition(workflow), null,
				(options != null) ? options : ChildOptions.DEFAULT);
	}

	/** Starts a child workflow whose run method returns nothing. */
	public static <W, A> ChildHandle<Void> startChild(WorkflowMethodReference.Proc1<W, A> workflow, A input,
			@Nullable ChildOptions options) {
		return context().startChild(WorkflowDefinitions.definition(workflow), input,
				(options != null) ? options : ChildOptions.DEFAULT);
	}

	/** Starts a child workflow whose run method takes no input and returns nothing. */
	public static <W> ChildHandle<Void> startChild(WorkflowMethodReference.Proc0<W> workflow,
			@Nullable ChildOptions options) {
		return context().startChild(WorkflowDefinitions.definition(workflow), null,
				(options != null) ? options : ChildOptions.DEFAULT);
	}

	/** Starts a child workflow and waits for its result. */
	public static <W, A, R> R executeChild(WorkflowMethodReference.Func1<W, A, R> workflow, A input,
			@Nullable ChildOptions options) {
		return Workflows.<W, A, R>startChild(workflow, input, options).result().get();
	}

	/**
	 * Starts a child workflow whose run method takes no input, and waits for its result.
	 */
	public static <W, R> R executeChild(WorkflowMethodReference.Func0<W, R> workflow, @Nullable ChildOptions options) {
		return Workflows.<W, R>startChild(workflow, options).result().get();
	}

	/**
	 * Starts a child workflow whose run method returns nothing, and waits for it to
	 * complete.
	 */
	public static <W, A> void executeChild(WorkflowMethodReference.Proc1<W, A> workflow, A input,
			@Nullable ChildOptions options) {
		Workflows.<W, A>startChild(workflow, input, options).result().get();
	}

	/**
	 * Starts a child workflow that takes no input and returns nothing, and waits for it
	 * to complete.
	 */
	public static <W> void executeChild(WorkflowMethodReference.Proc0<W> workflow, @Nullable ChildOptions options) {
		Workflows.<W>startChild(workflow, options).result().get();
	}

	/**
	 * Signals another workflow (its latest open run, or the given run). The promise fails
	 * with ApplicationFailure type "ExternalWorkflowNotFound" when there is no such open
	 * run. The name is not checked against the target's declared signal names (its type
	 * may not be registered on this node): a name the target does not take waits
	 * unconsumed in its run.
	 */
	public static Promise<Void> signalExternal(String workflowId, @Nullable String runId, String signalName,
			@Nullable Object payload) {
		return context().external(workflowId, runId, java.util.Objects.requireNonNull(signalName, "signalName"),
				payload);
	}

	/**
	 * Requests cancellation of another workflow (its latest open run, or the given run).
	 */
	public static Promise<Void> cancelExternal(String workflowId, @Nullable String runId) {
		return context().external(workflowId, runId, null, null);
	}

	/**
	 * A scope canceled with its parent and on demand. Call
	 * {@link CancellationScope#run()}.
	 */
	public static CancellationScope newCancellationScope(Runnable body) {
		return context().newScope(body, false);
	}

	/** A scope not canceled with its parent: for cleanup after a cancel request. */
	public static CancellationScope newDetachedCancellationScope(Runnable body) {
		return context().newScope(body, true);
	}

	/**
	 * Whether the code runs again over recorded history (logs and metrics should be
	 * quiet).
	 */
	public static boolean isReplaying() {
		return context().isReplaying();
	}

	/** A logger that is silent while the workflow replays. */
	public static Logger logger(Class<?> type) {
		return ReplayAwareLogger.of(type);
	}

	/**
	 * An activity called by name, with explicit options (no interface needed; see
	 * {@link ActivityStub}).
	 * @param activityType the activity type name ({@code @ActivityMethod(name)} or the
	 * method name)
	 */
	public static ActivityStub activity(String activityType, ActivityOptions options) {
		return ActivityStubs.untyped(activityType, options);
	}

	/**
	 * An activity stub with explicit options, for activities registered with the engine.
	 */
	public static <T> T activities(Class<T> activityType, ActivityOptions options) {
		return ActivityStubs.workflowStub(activityType, options);
	}

	/**
	 * A stub whose calls run as <em>local activities</em>: inside the calling workflow
	 * task, on the node that runs it, with their outcome recorded by the task's commit.
	 * Several in a row cost one commit instead of one each, which suits short steps
	 * (validation, lookups, computations).
	 * <p>
	 * The guarantee is weaker than an ordinary activity's: nothing of a local activity is
	 * durable before its task commits, so a crash or a lost run before that commit runs
	 * it again (its result, once committed, is replayed and it never runs again). A
	 * failed attempt is retried at once within the task, up to the retry policy's maximum
	 * attempts (3 when the policy sets no maximum; its backoff does not apply); the final
	 * failure is an {@link ActivityFailure}. The task, local activities included, must
	 * finish within the task timeout. The activity must be registered on every node that
	 * runs the workflow; task queues do not apply.
	 * @param activityType an {@code @Activity} class or interface registered with the
	 * engine
	 * @param options the retry policy (maximum attempts, non-retryable types) and
	 * schedule-to-close timeout that bound the attempts
	 */
	public static <T> T localActivities(Class<T> activityType, ActivityOptions options) {
		return ActivityStubs.localStub(activityType, options);
	}

	/** {@link #localActivities(Class, ActivityOptions)} with the default options. */
	public static <T> T localActivities(Class<T> activityType) {
		return localActivities(activityType, ActivityOptions.DEFAULT);
	}

}
