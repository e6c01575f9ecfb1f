package dev.durable.workflow.client;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.Signal;
import dev.durable.workflow.WorkflowMethodReference;
import dev.durable.workflow.failure.WorkflowException;

/**
 * A run, reached by workflow id or pinned to a run id. A handle from {@code start()} or
 * {@link WorkflowClient#handle(String)} addresses the latest run of the workflow id for
 * every call (signal, query, update, cancel, terminate, reset, describe, history), so it
 * reaches the run a continue-as-new, workflow retry or cron started;
 * {@link WorkflowClient#handle(String, UUID)} addresses that run only, and a message or
 * lifecycle call to it after it closed throws {@link WorkflowClosedException}.
 * {@link #result()} follows the chain either way.
 *
 * @param <R> the result type
 */
public interface WorkflowHandle<R> {

	String workflowId();

	/**
	 * The run id: the pinned run; for a handle from {@code start()}, the run the start
	 * created (or found, with USE_EXISTING), even after it continued as new; for a handle
	 * by workflow id, the latest run at the time of the call. {@link #describe()} names
	 * the run the handle addresses now.
	 */
	UUID runId();

	/**
	 * Waits for the run to close and returns its result.
	 * @throws WorkflowFailedException when it failed, was canceled, terminated or timed
	 * out
	 */
	R result();

	/**
	 * Waits at most the given time.
	 * @param timeout how long to wait; {@code null}: as long as it takes, like
	 * {@link #result()}
	 * @throws WorkflowTimeoutException when the run is still open after the timeout
	 */
	R result(@Nullable Duration timeout);

	/** The result converted to the given type. */
	<T> T result(Class<T> type);

	/**
	 * Completes with the result, or exceptionally with {@link WorkflowFailedException}.
	 */
	CompletableFuture<R> resultAsync();

	/**
	 * Sends a signal ({@code null} payload: none). It is stored before this returns; a
	 * signal to a closed run throws {@link WorkflowClosedException}. When this node
	 * registers the workflow type, the name must be one the type takes (a
	 * {@code @SignalMethod}, a dynamic one, or a name declared for
	 * {@code Workflows.receive} by {@code @Workflow(receives)} or a {@code Signal}
	 * field); a node that does not register the type cannot check the name and sends it
	 * as is.
	 * @throws UnknownHandlerException when the type takes no signal of that name (nothing
	 * is stored)
	 */
	void signal(String signalName, @Nullable Object payload);

	/**
	 * Sends a signal with an idempotency key, scoped to the workflow id: a retried send
	 * with the same key changes nothing, even after the first was consumed. A
	 * {@code null} payload is none, a {@code null} key sends without deduplication.
	 * @throws UnknownHandlerException when the type takes no signal of that name (nothing
	 * is stored, the key not recorded)
	 */
	void signal(String signalName, @Nullable Object payload, @Nullable String idempotencyKey);

	/**
	 * Sends a signal declared by a {@link dev.durable.workflow.Signal} field of the
	 * workflow class, received there with {@code Workflows.receive(signal)}; see
	 * {@link #signal(String, Object)}.
	 * @throws UnknownHandlerException when the run's type does not declare the signal
	 */
	default <T> void signal(Signal<T> signal, @Nullable T payload) {
		signal(signal.name(), payload, null);
	}

	/**
	 * Sends a declared signal with an idempotency key; see
	 * {@link #signal(String, Object, String)}.
	 * @throws UnknownHandlerException when the run's type does not declare the signal
	 */
	default <T> void signal(Signal<T> signal, @Nullable T payload, @Nullable String idempotencyKey) {
		signal(signal.name(), payload, idempotencyKey);
	}

	/**
	 * Sends a signal whose payload the caller converts once the handler is known, for
	 * gateways such as the REST API: one read of the run, one handler lookup. A
	 * {@code null} idempotency key sends without deduplication.
	 * @throws UnknownWorkflowTypeException when the run's type is not registered on this
	 * node
	 * @throws UnknownHandlerException when the type takes no signal of that name
	 */
	void signalEncoded(String signalName, EncodedPayload payload, @Nullable String idempotencyKey);

	/** Sends a signal to a handler named by method reference. */
	<W, A> void signal(WorkflowMethodReference.Proc1<W, A> signalMethod, A payload);

	/**
	 * Sends a signal with an idempotency key to a handler named by method reference; a
	 * {@code null} key sends without deduplication.
	 */
	<W, A> void signal(WorkflowMethodReference.Proc1<W, A> signalMethod, A payload, @Nullable String idempotencyKey);

	/** Sends a signal without payload to a handler named by method reference. */
	<W> void signal(WorkflowMethodReference.Proc0<W> signalMethod);

	/** Runs a query against the run's committed state; adds nothing to history. */
	<W, T> T query(WorkflowMethodReference.Func0<W, T> queryMethod);

	/** Runs a query with an argument. */
	<W, A, T> T query(WorkflowMethodReference.Func1<W, A, T> queryMethod, A argument);

	/** Runs a query by name, with an argument ({@code null}: none). */
	<T> T query(String queryName, @Nullable Object argument, Class<T> resultType);

	/**
	 * Runs a query whose argument the caller converts once the handler is known (see
	 * {@link #signalEncoded}); the result is decoded as the given type.
	 * @throws UnknownWorkflowTypeException when the run's type is not registered on this
	 * node
	 * @throws UnknownHandlerException when the type has no such query
	 */
	<T> T queryEncoded(String queryName, EncodedPayload argument, Class<T> resultType);

	/** Sends an update and waits for its result. */
	<W, A, T> T update(WorkflowMethodReference.Func1<W, A, T> updateMethod, A argument);

	/** Sends an update without argument and waits for its result. */
	<W, T> T update(WorkflowMethodReference.Func0<W, T> updateMethod);

	/**
	 * Sends an update by name, with an argument ({@code null}: none), and waits for its
	 * result.
	 */
	<T> T update(String updateName, @Nullable Object argument, Class<T> resultType);

	/**
	 * Sends an update and waits for the stage the options name (ACCEPTED by default);
	 * {@code null} options are {@link UpdateOptions#defaults()}.
	 */
	<W, A, T> UpdateHandle<T> startUpdate(WorkflowMethodReference.Func1<W, A, T> updateMethod, A argument,
			@Nullable UpdateOptions options);

	/**
	 * Sends an update by name, with an argument ({@code null}: none), and waits for the
	 * stage the options name; {@code null} options are {@link UpdateOptions#defaults()}.
	 */
	<T> UpdateHandle<T> startUpdate(String updateName, @Nullable Object argument, Class<T> resultType,
			@Nullable UpdateOptions options);

	/**
	 * Sends an update whose argument the caller converts once the handler is known (see
	 * {@link #signalEncoded}) and waits for the stage the options name; {@code null}
	 * options are {@link UpdateOptions#defaults()}.
	 * @throws UnknownWorkflowTypeException when the run's type is not registered on this
	 * node
	 * @throws UnknownHandlerException when the type has no such update
	 */
	<T> UpdateHandle<T> startUpdateEncoded(String updateName, EncodedPayload argument, Class<T> resultType,
			@Nullable UpdateOptions options);

	/** A handle to an update sent earlier, to fetch its outcome by id. */
	<T> UpdateHandle<T> updateHandle(String updateId, Class<T> resultType);

	/**
	 * Requests cancellation: the workflow sees {@code CanceledFailure} (an activity or
	 * child it waits for fails with a failure caused by it) and may clean up. The run
	 * then closes CANCELED when the cancellation ends it, or when it returns anyway;
	 * {@link #result()} throws {@link WorkflowFailedException} with status CANCELED and a
	 * {@code CanceledFailure} cause carrying the reason.
	 * @param reason the reason, or {@code null}
	 */
	void cancel(@Nullable String reason);

	/**
	 * Pauses a pending activity of the open run (inline or on a task queue): no new
	 * attempt of it starts, on any node, until {@link #unpauseActivity} or
	 * {@link #resetActivity}. An attempt already running runs on and its outcome counts;
	 * it sees the pause at its next heartbeat
	 * ({@code ActivityContext.isPauseRequested()}). If it fails, its retry waits for the
	 * unpause. The run's history records the pause (ACTIVITY_PAUSED), which its code
	 * never sees; {@link #describe()} and {@link #waitingOn()} show it. Pausing a paused
	 * activity changes nothing.
	 * @param activityId the activity's id in the run
	 * ({@link PendingActivity#activityId()})
	 * @param reason shown with the activity, or {@code null}
	 * @return whether this call paused it (false when it was paused already)
	 * @throws ActivityNotPendingException when the run does not wait for that activity
	 * @throws WorkflowClosedException when the run is closed
	 */
	boolean pauseActivity(long activityId, @Nullable String reason);

	/**
	 * Unpauses a paused activity: its next attempt starts when due (at once when its
	 * retry time passed). An activity its retry policy paused after its attempts were
	 * exhausted gets a new round of the policy's maximum attempts.
	 * @param activityId the activity's id in the run
	 * @return whether this call unpaused it (false when it was not paused)
	 * @throws ActivityNotPendingException when the run does not wait for that activity
	 * @throws WorkflowClosedException when the run is closed
	 */
	boolean unpauseActivity(long activityId);

	/**
	 * Resets a pending activity's attempts and lifts its pause: its next attempt is
	 * attempt 1 and starts at once. When an attempt runs, it runs on; if it fails, the
	 * next one is attempt 1, at once.
	 * @param activityId the activity's id in the run
	 * @param keepHeartbeatDetails whether the next attempt still sees the last heartbeat
	 * details ({@code ActivityContext.heartbeatDetails}), or starts without
	 * @throws ActivityNotPendingException when the run does not wait for that activity
	 * @throws WorkflowClosedException when the run is closed
	 */
	void resetActivity(long activityId, boolean keepHeartbeatDetails);

	/**
	 * Changes a pending activity's options for the attempts to come: its retry policy
	 * (which also decides about a running attempt that fails) and timeouts (a running
	 * inline attempt keeps its own; the timeouts of a task-queue attempt are enforced
	 * from its row, so a running one is judged by the new ones too). The task queue,
	 * priority and partition key stay.
	 * @param activityId the activity's id in the run
	 * @param update the fields to change
	 * @return the activity's options from now on
	 * @throws ActivityNotPendingException when the run does not wait for that activity
	 * @throws IllegalArgumentException when the update changes nothing or a timeout is
	 * not positive
	 * @throws WorkflowClosedException when the run is closed
	 */
	ActivityAttemptOptions updateActivityOptions(long activityId, ActivityOptionsUpdate update);

	/**
	 * What the run waits for now, as a stack-trace query tells it: the operator's
	 * unpause, its place in a flow-control queue, the retry of its failing workflow task,
	 * its activities (with their next attempt), durable timers (with when they fire),
	 * children, signals its code receives by name and the conditions its code awaits
	 * (with the line of the {@code await}). Read from the run's rows and from its code's
	 * state, which this node reads from the run's cached instance or a replay of its
	 * history (changing nothing); the code's part is left out when this node cannot
	 * replay the run. Empty for a closed run.
	 */
	List<RunWait> waitingOn();

	/**
	 * What the run's code last set with {@code Workflows.setCurrentDetails}, or
	 * {@code null}: read, as a query is, from the run's cached instance or a replay of
	 * its history on this node ({@code null} when this node cannot replay it).
	 */
	@Nullable String currentDetails();

	/**
	 * Pauses the open run: from now on it takes no workflow task and starts no activity
	 * attempt, on any node, until {@link #unpause()}. Attempts already running finish and
	 * their outcomes wait; signals, updates and cancel requests are accepted and wait;
	 * queries are answered; timers, retries and run timeouts that come due act after the
	 * unpause; a terminate closes it at once. A pause survives restarts and moves between
	 * nodes. Pausing a paused run changes nothing (it keeps its first reason).
	 * @param reason shown with the run (describe, dashboard), or {@code null}
	 * @return whether this call paused the run (false when it was paused already)
	 * @throws WorkflowClosedException when the run is closed
	 */
	boolean pause(@Nullable String reason);

	/**
	 * Unpauses the run: it takes up what arrived while it was paused (signals, updates,
	 * due timers, activity outcomes) and starts the activity attempts the pause held
	 * back.
	 * @return whether this call unpaused the run (false when it was not paused)
	 * @throws WorkflowClosedException when the run is closed
	 */
	boolean unpause();

	/**
	 * Moves the open run, pinned to a build no node of which may be live any more, to
	 * this node's build {@code toBuild}: its history is replayed on this node's code
	 * first, and a run that does not replay stays where it is (the report names its first
	 * mismatch, and describe shows it until a later move succeeds).
	 * @return what happened to the run (empty when it is on {@code toBuild} already)
	 * @throws IllegalArgumentException when {@code toBuild} is not this node's build
	 * @throws IllegalStateException when the run is not pinned to a build
	 * @throws WorkflowClosedException when the run is closed
	 */
	BuildMoveReport moveToBuild(String toBuild);

	/**
	 * Closes the run at once; no workflow code runs.
	 * @param reason recorded in the run's history, or {@code null}
	 */
	void terminate(@Nullable String reason);

	/**
	 * Resets the workflow to a workflow-task boundary, in one transaction: the run (it
	 * must be the latest run of the workflow id, open or closed) is terminated if open,
	 * and a new run of the same workflow id starts with the history recorded before the
	 * workflow task that holds {@code eventId}. That task and the ones after it run again
	 * with the current code: timers and activities pending at the boundary are recreated,
	 * signals received after it are delivered again in their order (their idempotency
	 * keys stay recorded), updates and cancel requests after it are not. Children started
	 * before the boundary belong to the new run; children started after it are closed by
	 * their parent close policy. A handle that follows the workflow id, and
	 * {@link #result()}, follow the new run.
	 * @param eventId an event id from {@link #history()}; 1 starts the workflow over
	 * @param reason recorded in the terminated run's history, or {@code null}
	 * @return the new run's id
	 * @throws IllegalArgumentException when the run has no such event, or it was not
	 * written by a workflow task (terminate, timeout)
	 * @throws IllegalStateException when this handle is pinned to a run that is not the
	 * latest
	 */
	UUID reset(long eventId, @Nullable String reason);

	/**
	 * Resets the workflow to a workflow-task boundary named by a {@link ResetPoint},
	 * resolved from this run's history; otherwise as {@link #reset(long, String)}.
	 * @return the new run's id
	 * @throws IllegalArgumentException when the history has no such workflow task
	 * @throws IllegalStateException when this handle is pinned to a run that is not the
	 * latest
	 */
	UUID reset(ResetPoint point, @Nullable String reason);

	WorkflowDescription describe();

	List<HistoryEvent> history();

	/** Thrown by {@link #result(Duration)} when the run is still open. */
	/**
	 * The value of an event the workflow sets with {@code Workflows.setEvent}, waiting
	 * until it is set: the caller is woken by the commit that sets it (on this node at
	 * once, from other nodes by a PostgreSQL notification), not by polling. Works on
	 * closed runs too. A handle by workflow id reads the latest run and, when that run
	 * closes without the event, goes on to the run that follows it (continue-as-new
	 * carries the events set so far); a pinned handle reads its run only.
	 * @param key the event's key
	 * @param type the value's type
	 * @param timeout how long to wait; {@link Duration#ZERO} reads without waiting
	 * @return the value, or empty when the timeout passed or the run closed without
	 * setting it
	 * @throws WorkflowNotFoundException when there is no such workflow or run
	 * @throws IllegalArgumentException for a bad key or a negative timeout
	 */
	<T> java.util.Optional<T> getEvent(String key, Class<T> type, Duration timeout);

	/**
	 * The values of a stream the workflow writes with {@code Workflows.stream(key)}, in
	 * order from an offset: a blocking, live {@code Stream} that waits for values not yet
	 * written and ends when the workflow closes the stream or the run closes. Values are
	 * seen once the workflow task that wrote them has committed. Close the stream
	 * (try-with-resources) to stop reading early. Reads the run the handle addresses now
	 * (the latest, or the pinned one).
	 * @param key the stream's key
	 * @param fromOffset the first offset to read (0: from the start)
	 * @param type the values' type
	 * @throws WorkflowNotFoundException when there is no such workflow or run
	 * @throws IllegalArgumentException for a bad key or a negative offset
	 */
	<T> java.util.stream.Stream<StreamEntry<T>> readStream(String key, long fromOffset, Class<T> type);

	/**
	 * {@link #readStream(String, long, Class)} with values as the payload converter reads
	 * them untyped.
	 */
	default java.util.stream.Stream<StreamEntry<Object>> readStream(String key, long fromOffset) {
		return readStream(key, fromOffset, Object.class);
	}

	/**
	 * {@link #readStream(String, long, Class)} as a reactive-streams publisher: each
	 * subscriber reads from the offset on a virtual thread of its own, as fast as it
	 * requests, and completes when the stream ends.
	 */
	<T> java.util.concurrent.Flow.Publisher<StreamEntry<T>> publishStream(String key, long fromOffset, Class<T> type);

	class WorkflowTimeoutException extends WorkflowException {

		public WorkflowTimeoutException(String message, TimeoutException cause) {
			super(message, cause);
		}

	}

}
