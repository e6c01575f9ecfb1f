package dev.durable.workflow.internal.client;

import java.lang.reflect.Type;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import dev.durable.workflow.WorkflowMethodReference;
import dev.durable.workflow.client.BuildMoveReport;
import dev.durable.workflow.client.ActivityAttemptOptions;
import dev.durable.workflow.client.ActivityOptionsUpdate;
import dev.durable.workflow.client.EncodedPayload;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.ResetPoint;
import dev.durable.workflow.client.StreamEntry;
import dev.durable.workflow.client.UpdateHandle;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.HandlerKind;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;

/**
 * A handle: by workflow id (every call addresses the latest run) or pinned to a run id. A
 * handle from a start knows the run it started, but only for {@link #runId()} and as the
 * start of the chain {@link #result()} follows; messages and lifecycle calls still go to
 * the latest run, so they reach the run a continue-as-new, retry or cron started.
 */
final class WorkflowHandleImpl<R> implements WorkflowHandle<R> {

	private final HandleOperations operations;

	private final String workflowId;

	/**
	 * The pinned run, or the run a start created; {@code null} for a handle by workflow
	 * id.
	 */
	private final UUID knownRunId;

	private final boolean pinned;

	private final Type resultType;

	/** The outcome the start's own first task closed the run with, or {@code null}. */
	private final RunRepository.Outcome closedAtStart;

	/**
	 * The workflow type a start's handle started, or {@code null} (a handle by id or
	 * pinned).
	 */
	private final String startedType;

	private WorkflowHandleImpl(HandleOperations operations, String workflowId, UUID knownRunId, boolean pinned,
			Type resultType, RunRepository.Outcome closedAtStart, String startedType) {
		this.operations = operations;
		this.workflowId = workflowId;
		this.knownRunId = knownRunId;
		this.pinned = pinned;
		this.resultType = resultType;
		this.closedAtStart = closedAtStart;
		this.startedType = startedType;
	}

	/**
	 * Follows the latest run of the workflow id; {@link #runId()} stays the run the start
	 * created.
	 */
	static <R> WorkflowHandleImpl<R> started(HandleOperations operations, RunStarter.Started started,
			String workflowType, Type resultType) {
		return new WorkflowHandleImpl<>(operations, started.workflowId(), started.runId(), false, resultType,
				started.closedWith(), workflowType);
	}

	/** Follows the latest run of the workflow id. */
	static <R> WorkflowHandleImpl<R> latest(HandleOperations operations, String workflowId, Type resultType) {
		return new WorkflowHandleImpl<>(operations, workflowId, null, false, resultType, null, null);
	}

	/** Addresses this run only (its {@link #result()} still follows its chain). */
	static <R> WorkflowHandleImpl<R> pinned(HandleOperations operations, String workflowId, UUID runId,
			Type resultType) {
		return new WorkflowHandleImpl<>(operations, workflowId, runId, true, resultType, null, null);
	}

	@Override
	public String workflowId() {
		return this.workflowId;
	}

	@Override
	public UUID runId() {
		return (this.knownRunId != null) ? this.knownRunId : row().runId();
	}

	/**
	 * The run a message or lifecycle call goes to: the pinned one, else the latest, read
	 * now.
	 */
	private RunRow row() {
		return this.operations.lookup().row(this.workflowId, this.pinned ? this.knownRunId : null);
	}

	@Override
	public R result() {
		return result(this.resultType, null);
	}

	@Override
	public R result(Duration timeout) {
		return result(this.resultType, timeout);
	}

	@Override
	public <T> T result(Class<T> type) {
		return type.cast(result((Type) type, null));
	}

	private <T> T result(Type type, Duration timeout) {
		// a start's handle waits from its own run: a later run of a reused workflow id is
		// not its result
		UUID runId = (this.knownRunId != null) ? this.knownRunId : runId();
		return this.operations.results().result(this.workflowId, runId, this.closedAtStart, type, timeout);
	}

	@Override
	public CompletableFuture<R> resultAsync() {
		return CompletableFuture.supplyAsync(this::result, (task) -> Thread.ofVirtual().start(task));
	}

	private MessageClient messages() {
		return this.operations.messages();
	}

	@Override
	public void signal(String signalName, Object payload) {
		signal(signalName, payload, null);
	}

	@Override
	public void signal(String signalName, Object payload, String idempotencyKey) {
		if (idempotencyKey == null && this.startedType != null) {
			// the type is known: the send finds the latest run itself (one round trip,
			// not two)
			messages().signalLatest(this.startedType, this.workflowId, signalName, payload, this::row);
			return;
		}
		messages().signal(row(), signalName, payload, idempotencyKey);
	}

	@Override
	public void signalEncoded(String signalName, EncodedPayload payload, String idempotencyKey) {
		messages().signal(row(), signalName, payload, idempotencyKey);
	}

	@Override
	public <W, A> void signal(WorkflowMethodReference.Proc1<W, A> signalMethod, A payload) {
		signal(MessageClient.handlerName(signalMethod, HandlerKind.SIGNAL), payload, null);
	}

	@Override
	public <W, A> void signal(WorkflowMethodReference.Proc1<W, A> signalMethod, A payload, String idempotencyKey) {
		signal(MessageClient.handlerName(signalMethod, HandlerKind.SIGNAL), payload, idempotencyKey);
	}

	@Override
	public <W> void signal(WorkflowMethodReference.Proc0<W> signalMethod) {
		signal(MessageClient.handlerName(signalMethod, HandlerKind.SIGNAL), null, null);
	}

	@Override
	public <W, T> T query(WorkflowMethodReference.Func0<W, T> queryMethod) {
		return query(MessageClient.handlerName(queryMethod, HandlerKind.QUERY), null, returnType(queryMethod));
	}

	@Override
	public <W, A, T> T query(WorkflowMethodReference.Func1<W, A, T> queryMethod, A argument) {
		return query(MessageClient.handlerName(queryMethod, HandlerKind.QUERY), argument, returnType(queryMethod));
	}

	@Override
	public <T> T query(String queryName, Object argument, Class<T> resultType) {
		return resultType.cast(query(queryName, argument, (Type) resultType));
	}

	@Override
	public <T> T queryEncoded(String queryName, EncodedPayload argument, Class<T> resultType) {
		return resultType.cast(messages().query(row(), queryName, argument, resultType));
	}

	@SuppressWarnings("unchecked")
	private <T> T query(String queryName, Object argument, Type resultType) {
		return (T) messages().query(row(), queryName, argument, resultType);
	}

	private static Type returnType(java.io.Serializable reference) {
		return MethodReferences.resolve(reference).getGenericReturnType();
	}

	@Override
	public <W, A, T> T update(WorkflowMethodReference.Func1<W, A, T> updateMethod, A argument) {
		return this
			.<W, A, T>startUpdate(updateMethod, argument, UpdateOptions.defaults().waitFor(UpdateStage.COMPLETED))
			.result();
	}

	@Override
	public <W, T> T update(WorkflowMethodReference.Func0<W, T> updateMethod) {
		return this
			.<T>startUpdate(MessageClient.handlerName(updateMethod, HandlerKind.UPDATE), null, returnType(updateMethod),
					UpdateOptions.defaults().waitFor(UpdateStage.COMPLETED))
			.result();
	}

	@Override
	public <T> T update(String updateName, Object argument, Class<T> resultType) {
		return startUpdate(updateName, argument, resultType, UpdateOptions.defaults().waitFor(UpdateStage.COMPLETED))
			.result();
	}

	@Override
	public <W, A, T> UpdateHandle<T> startUpdate(WorkflowMethodReference.Func1<W, A, T> updateMethod, A argument,
			UpdateOptions options) {
		return startUpdate(MessageClient.handlerName(updateMethod, HandlerKind.UPDATE), argument,
				returnType(updateMethod), options);
	}

	@Override
	public <T> UpdateHandle<T> startUpdate(String updateName, Object argument, Class<T> resultType,
			UpdateOptions options) {
		return startUpdate(updateName, argument, (Type) resultType, options);
	}

	@Override
	public <T> UpdateHandle<T> startUpdateEncoded(String updateName, EncodedPayload argument, Class<T> resultType,
			UpdateOptions options) {
		return messages().startUpdate(row(), updateName, argument, resultType,
				(options != null) ? options : UpdateOptions.defaults());
	}

	private <T> UpdateHandle<T> startUpdate(String updateName, Object argument, Type resultType,
			UpdateOptions options) {
		return messages().startUpdate(row(), updateName, argument, resultType,
				(options != null) ? options : UpdateOptions.defaults());
	}

	@Override
	public <T> UpdateHandle<T> updateHandle(String updateId, Class<T> resultType) {
		return messages().updateHandle(this.workflowId, updateId, resultType);
	}

	@Override
	public void cancel(String reason) {
		this.operations.control().cancel(row(), reason);
	}

	@Override
	public void terminate(String reason) {
		this.operations.control().terminate(row(), reason);
	}

	@Override
	public boolean pause(String reason) {
		return this.operations.control().pause(row(), reason);
	}

	@Override
	public boolean unpause() {
		return this.operations.control().unpause(row());
	}

	@Override
	public BuildMoveReport moveToBuild(String toBuild) {
		return this.operations.builds().moveRun(row(), toBuild);
	}

	@Override
	public boolean pauseActivity(long activityId, String reason) {
		return this.operations.activities().pause(row(), activityId, reason);
	}

	@Override
	public boolean unpauseActivity(long activityId) {
		return this.operations.activities().unpause(row(), activityId);
	}

	@Override
	public void resetActivity(long activityId, boolean keepHeartbeatDetails) {
		this.operations.activities().reset(row(), activityId, keepHeartbeatDetails);
	}

	@Override
	public ActivityAttemptOptions updateActivityOptions(long activityId, ActivityOptionsUpdate update) {
		return this.operations.activities().updateOptions(row(), activityId, update);
	}

	@Override
	public UUID reset(long eventId, String reason) {
		return this.operations.control().reset(row(), eventId, reason);
	}

	@Override
	public UUID reset(ResetPoint point, String reason) {
		RunRow row = row();
		return this.operations.control().reset(row, this.operations.control().eventIdOf(row, point), reason);
	}

	@Override
	public List<RunWait> waitingOn() {
		return this.operations.waits().of(row());
	}

	@Override
	public String currentDetails() {
		return this.operations.waits().currentDetails(row());
	}

	@Override
	public WorkflowDescription describe() {
		return this.operations.describer().describe(row());
	}

	@Override
	public List<HistoryEvent> history() {
		return this.operations.describer().history(row());
	}

	@Override
	public <T> Optional<T> getEvent(String key, Class<T> type, Duration timeout) {
		return this.operations.outputs()
			.event(this.workflowId, row().runId(), !this.pinned, key, type,
					java.util.Objects.requireNonNull(timeout, "timeout"));
	}

	@Override
	public <T> java.util.stream.Stream<StreamEntry<T>> readStream(String key, long fromOffset, Class<T> type) {
		return this.operations.outputs().stream(this.workflowId, row().runId(), key, fromOffset, type);
	}

	@Override
	public <T> java.util.concurrent.Flow.Publisher<StreamEntry<T>> publishStream(String key, long fromOffset,
			Class<T> type) {
		return this.operations.outputs().publisher(this.workflowId, row().runId(), key, fromOffset, type);
	}

}
