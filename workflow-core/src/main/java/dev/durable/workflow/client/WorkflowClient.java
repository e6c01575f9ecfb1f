package dev.durable.workflow.client;

import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.Signal;
import dev.durable.workflow.WorkflowMethodReference;
import dev.durable.workflow.client.batch.BatchIdConflictException;
import dev.durable.workflow.client.batch.BatchNotFoundException;
import dev.durable.workflow.client.batch.BatchRequest;
import dev.durable.workflow.client.batch.BatchStatus;
import dev.durable.workflow.client.schedule.ScheduleClient;

/**
 * Starts runs and reaches existing ones. A bean in Spring; {@code engine.client()}
 * elsewhere. Typed calls name the workflow's run method by method reference. Where a
 * start takes {@link StartOptions}, {@code null} means {@link StartOptions#DEFAULT}.
 */
public interface WorkflowClient {

	/** Starts a run of the workflow whose run method is given, with one input. */
	<W, A, R> WorkflowHandle<R> start(WorkflowMethodReference.Func1<W, A, R> workflow, A input,
			@Nullable StartOptions options);

	/** Starts a run of a workflow whose run method takes no input. */
	<W, R> WorkflowHandle<R> start(WorkflowMethodReference.Func0<W, R> workflow, @Nullable StartOptions options);

	/** Starts a run of a workflow whose run method returns nothing. */
	<W, A> WorkflowHandle<Void> start(WorkflowMethodReference.Proc1<W, A> workflow, A input,
			@Nullable StartOptions options);

	/**
	 * Starts a run by type name, with an input ({@code null}: none); the handle's
	 * {@link WorkflowHandle#result(Class)} converts.
	 */
	WorkflowHandle<Object> start(String workflowType, @Nullable Object input, @Nullable StartOptions options);

	/** Starts and waits for the result. */
	default <W, A, R> R execute(WorkflowMethodReference.Func1<W, A, R> workflow, A input,
			@Nullable StartOptions options) {
		return start(workflow, input, options).result();
	}

	/** Starts and waits for the result. */
	default <W, R> R execute(WorkflowMethodReference.Func0<W, R> workflow, @Nullable StartOptions options) {
		return start(workflow, options).result();
	}

	/**
	 * Signals the open run of the workflow id, or starts one and signals it, atomically.
	 * The signal is delivered before the main method first runs. A {@code null} signal
	 * payload is a signal without payload.
	 * @throws UnknownHandlerException when the workflow type takes no signal of that name
	 * (see {@link WorkflowHandle#signal(String, Object)}); no run is started, nothing is
	 * stored
	 */
	<W, A, R> WorkflowHandle<R> signalWithStart(WorkflowMethodReference.Func1<W, A, R> workflow, A input,
			@Nullable StartOptions options, String signalName, @Nullable Object signalPayload);

	/**
	 * Signal-with-start of a signal declared by a {@link dev.durable.workflow.Signal}
	 * field of the workflow class.
	 * @throws UnknownHandlerException when the workflow type does not declare the signal
	 */
	default <W, A, R, T> WorkflowHandle<R> signalWithStart(WorkflowMethodReference.Func1<W, A, R> workflow, A input,
			@Nullable StartOptions options, Signal<T> signal, @Nullable T signalPayload) {
		return signalWithStart(workflow, input, options, signal.name(), signalPayload);
	}

	/**
	 * Signal-with-start by type name; {@code null} input or signal payload: none.
	 * @throws UnknownHandlerException when this node registers the type and it takes no
	 * signal of that name; no run is started, nothing is stored
	 */
	WorkflowHandle<Object> signalWithStart(String workflowType, @Nullable Object input, @Nullable StartOptions options,
			String signalName, @Nullable Object signalPayload);

	/**
	 * Sends an update to the open run of the workflow id, or starts one and sends it,
	 * atomically with the start; waits for the update's result. The options must say what
	 * to do with an open run: idConflictPolicy USE_EXISTING or TERMINATE_EXISTING (so
	 * they are required here). A {@code null} update argument is none; {@code null}
	 * update options are the defaults waiting for COMPLETED.
	 */
	<W, A, R, T> UpdateHandle<T> updateWithStart(WorkflowMethodReference.Func1<W, A, R> workflow, A input,
			StartOptions options, String updateName, @Nullable Object updateArgument, Class<T> resultType,
			@Nullable UpdateOptions updateOptions);

	/**
	 * A debounced start: repeated calls with the same {@link DebounceOptions#key() key}
	 * within the delay of each other collapse into one run, started with the last call's
	 * input once the calls stopped for the delay, and at the latest {@code maxWait} after
	 * the window's first call. The window lives in the database, so calls from any node
	 * collapse, and exactly one worker node starts the run. A call after the run started
	 * opens a new window.
	 * @throws UnknownWorkflowTypeException when no node registered the workflow type
	 */
	<W, A, R> DebouncedStart debounce(WorkflowMethodReference.Func1<W, A, R> workflow, A input,
			DebounceOptions options);

	/**
	 * {@link #debounce(WorkflowMethodReference.Func1, Object, DebounceOptions)} by type
	 * name; {@code null} input: none.
	 */
	DebouncedStart debounce(String workflowType, @Nullable Object input, DebounceOptions options);

	/** A handle that follows the latest run of the workflow id. */
	WorkflowHandle<Object> handle(String workflowId);

	/**
	 * A handle pinned to one run: its messages and lifecycle calls never move to a later
	 * run.
	 */
	WorkflowHandle<Object> handle(String workflowId, UUID runId);

	/** A typed handle that follows the latest run of the workflow id. */
	<R> WorkflowHandle<R> handle(String workflowId, Class<R> resultType);

	/**
	 * Schedules: workflows started at times of a cron or interval spec, by the worker
	 * nodes.
	 */
	ScheduleClient schedules();

	/**
	 * The builds of the namespace: where new runs go (current and ramping builds), the
	 * drain status of each build, and moves of pinned runs between builds.
	 */
	WorkerBuilds builds();

	/** Completes, fails or heartbeats activity attempts by task token, from any node. */
	ActivityCompletionClient activityCompletion();

	/**
	 * Publishes an event on a topic, with a new event id: every run waiting for a
	 * matching event on the topic ({@code Workflows.awaitEvent}) receives it, each once.
	 * The payload is written as JSON by the payload converter (unencrypted: the database
	 * matches the waits against its fields).
	 * @param topic 1-200 characters
	 * @param payload the payload (a record, a map, a string...)
	 * @throws IllegalArgumentException for a bad topic, or a payload that is not JSON
	 */
	default PublishedEvent publish(String topic, @Nullable Object payload) {
		return publish(topic, payload, null);
	}

	/**
	 * Publishes an event on a topic once per event id: a repeat with the same id is a
	 * no-op ({@link PublishedEvent#stored()} is {@code false}), so a publisher may retry
	 * safely. Waiting runs are woken once the event is stored.
	 * @param eventId the event's id (1-200 characters), or {@code null} for a new one
	 * @throws IllegalArgumentException for a bad topic or event id, or a payload that is
	 * not JSON
	 */
	PublishedEvent publish(String topic, @Nullable Object payload, @Nullable String eventId);

	/**
	 * The namespace's topics (at most 1,000, by name): the last position of each, its
	 * waiting runs and its events not dispatched yet.
	 */
	List<TopicStatus> topics();

	/**
	 * Lists runs matching the filter, newest first (by start time, then run id), one page
	 * at a time. Pages are stable under concurrent starts: a run started after the first
	 * page does not shift the later pages.
	 * @param filter which runs; {@link WorkflowFilter#all()} (or {@code null}) for every
	 * run of the namespace
	 * @param pageSize 1 to 1,000 runs
	 * @param pageToken {@code null} for the first page, else the previous page's
	 * {@link WorkflowPage#nextPageToken()}
	 * @throws IllegalArgumentException for a bad filter value, page size or page token
	 */
	WorkflowPage list(@Nullable WorkflowFilter filter, int pageSize, @Nullable String pageToken);

	/** Counts the runs matching the filter ({@code null}: every run of the namespace). */
	long count(@Nullable WorkflowFilter filter);

	/**
	 * Starts a batch: the request's operation applied to every run its filter matches, as
	 * a tracked operation that survives crashes and restarts (it resumes at the page it
	 * was on). A run of the engine's own type {@code durable-batch} carries it out on a
	 * node that runs workflows; the progress is stored after each page.
	 * @return the batch as just started, or the existing batch when one with the
	 * request's id was started before with the same request
	 * @throws BatchIdConflictException when a batch with this id exists with a different
	 * request
	 * @throws InvalidWorkflowIdException when the batch id is not 1-240 characters of
	 * letters, digits and {@code ._:@-}
	 */
	BatchStatus startBatch(BatchRequest request);

	/**
	 * A batch and its progress.
	 * @throws BatchNotFoundException when there is no batch with this id
	 */
	BatchStatus describeBatch(String batchId);

	/** The latest batches, newest first; {@code limit} 1 to 1,000. */
	java.util.List<BatchStatus> listBatches(int limit);

	/**
	 * Stops a running batch after the page under way: the runs processed so far keep the
	 * operation, no further run is taken. A batch that is closed already is returned as
	 * it is.
	 * @throws BatchNotFoundException when there is no batch with this id
	 */
	BatchStatus cancelBatch(String batchId);

}
