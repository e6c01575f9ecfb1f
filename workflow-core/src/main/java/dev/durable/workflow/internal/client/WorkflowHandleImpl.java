package dev.durable.workflow.internal.client;

import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import dev.durable.workflow.client.Functions;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.UpdateHandle;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.internal.registry.MessageHandlers.Kind;
import dev.durable.workflow.client.PendingActivity;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.store.ResetRepository;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.StoredActivity;
import dev.durable.workflow.internal.store.VisibilityRepository;
import dev.durable.workflow.internal.support.Attributes;
import dev.durable.workflow.internal.support.InternalJson;
import dev.durable.workflow.internal.worker.Engine;
import dev.durable.workflow.internal.worker.ResultWaiters;

/** A handle: by workflow id (latest run) or pinned to a run id. */
final class WorkflowHandleImpl<R> implements WorkflowHandle<R> {

	/** How often a waiter re-reads a run closed by another node (in-JVM closes wake it at once). */
	private static final long RECHECK_MILLIS = 500;

	private final Engine engine;

	private final String workflowId;

	private final UUID pinnedRunId;

	private final Type resultType;

	WorkflowHandleImpl(Engine engine, String workflowId, UUID pinnedRunId, Type resultType) {
		this.engine = engine;
		this.workflowId = workflowId;
		this.pinnedRunId = pinnedRunId;
		this.resultType = resultType;
	}

	@Override
	public String workflowId() {
		return this.workflowId;
	}

	@Override
	public UUID runId() {
		return row().runId();
	}

	private RunRow row() {
		Optional<RunRow> row = (this.pinnedRunId != null) ? this.engine.runs().find(this.pinnedRunId)
				: this.engine.runs().findLatest(this.engine.config().namespace(), this.workflowId);
		return row.orElseThrow(() -> new WorkflowNotFoundException("No workflow with id '" + this.workflowId + "'"
				+ ((this.pinnedRunId != null) ? " and run id " + this.pinnedRunId : "")));
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

	@SuppressWarnings("unchecked")
	private <T> T result(Type type, Duration timeout) {
		long deadline = (timeout != null) ? System.nanoTime() + timeout.toNanos() : Long.MAX_VALUE;
		UUID runId = (this.pinnedRunId != null) ? this.pinnedRunId : runId();
		CompletableFuture<Object> closed = this.engine.waiters().future(runId);
		// a run open on this node hands its outcome over when it closes: no need to read it first
		boolean read = !this.engine.holdsRun(runId);
		while (true) {
			RunRepository.Outcome outcome = ResultWaiters.handedOver(closed);
			if (outcome == null && (read || closed.isDone())) {
				if (closed.isDone()) {
					// woken without an outcome: wait anew, then read what changed
					closed = this.engine.waiters().future(runId);
				}
				UUID reading = runId;
				outcome = this.engine.runs().outcome(runId).orElseThrow(() -> new WorkflowNotFoundException(
						"No run " + reading + " of workflow '" + this.workflowId + "'"));
			}
			read = true;
			if (outcome != null && !"RUNNING".equals(outcome.status())) {
				this.engine.waiters().forget(runId, closed);
				if (outcome.nextRunId() == null) {
					return (T) decode(runId, outcome, type);
				}
				// follow the chain: continue-as-new, workflow retry, cron
				runId = outcome.nextRunId();
				closed = this.engine.waiters().future(runId);
				read = !this.engine.holdsRun(runId);
				continue;
			}
			if (!this.engine.waiters().pause(closed, deadline, RECHECK_MILLIS)) {
				throw new WorkflowTimeoutException("Workflow " + this.workflowId + " (run " + runId
						+ ") is still running after " + timeout, new TimeoutException());
			}
		}
	}

	private Object decode(UUID runId, RunRepository.Outcome outcome, Type type) {
		WorkflowStatus status = WorkflowStatus.valueOf(outcome.status());
		if (status == WorkflowStatus.COMPLETED) {
			return this.engine.payloads().decode(outcome.result(), type, "the result of workflow " + this.workflowId);
		}
		FailureInfo failure = outcome.failure();
		Throwable cause = (failure != null) ? Failures.toException(failure, this.engine.payloads().converter()) : null;
		throw new WorkflowFailedException(this.workflowId, runId, status, cause);
	}

	@Override
	public CompletableFuture<R> resultAsync() {
		return CompletableFuture.supplyAsync(this::result, (task) -> Thread.ofVirtual().start(task));
	}

	private MessageClient messages() {
		return new MessageClient(this.engine);
	}

	@Override
	public void signal(String signalName, Object payload) {
		signal(signalName, payload, null);
	}

	@Override
	public void signal(String signalName, Object payload, String idempotencyKey) {
		messages().signal(row(), signalName, payload, idempotencyKey);
	}

	@Override
	public <W, A> void signal(Functions.Proc1<W, A> signalMethod, A payload) {
		signal(MessageClient.handlerName(signalMethod, Kind.SIGNAL), payload, null);
	}

	@Override
	public <W, A> void signal(Functions.Proc1<W, A> signalMethod, A payload, String idempotencyKey) {
		signal(MessageClient.handlerName(signalMethod, Kind.SIGNAL), payload, idempotencyKey);
	}

	@Override
	public <W> void signal(Functions.Proc0<W> signalMethod) {
		signal(MessageClient.handlerName(signalMethod, Kind.SIGNAL), null, null);
	}

	@Override
	public <W, T> T query(Functions.Func0<W, T> queryMethod) {
		return query(MessageClient.handlerName(queryMethod, Kind.QUERY), null, returnType(queryMethod));
	}

	@Override
	public <W, A, T> T query(Functions.Func1<W, A, T> queryMethod, A argument) {
		return query(MessageClient.handlerName(queryMethod, Kind.QUERY), argument, returnType(queryMethod));
	}

	@Override
	public <T> T query(String queryName, Object argument, Class<T> resultType) {
		return resultType.cast(query(queryName, argument, (Type) resultType));
	}

	@SuppressWarnings("unchecked")
	private <T> T query(String queryName, Object argument, Type resultType) {
		byte[] result = messages().query(row(), queryName, argument);
		return (T) this.engine.payloads().decode(result, resultType, "the result of query " + queryName);
	}

	private static Type returnType(java.io.Serializable reference) {
		return MethodReferences.resolve(reference).getGenericReturnType();
	}

	@Override
	public <W, A, T> T update(Functions.Func1<W, A, T> updateMethod, A argument) {
		return this.<W, A, T>startUpdate(updateMethod, argument, UpdateOptions.defaults().waitFor(UpdateStage.COMPLETED))
			.result();
	}

	@Override
	public <W, T> T update(Functions.Func0<W, T> updateMethod) {
		return this.<T>startUpdate(MessageClient.handlerName(updateMethod, Kind.UPDATE), null,
				returnType(updateMethod), UpdateOptions.defaults().waitFor(UpdateStage.COMPLETED)).result();
	}

	@Override
	public <T> T update(String updateName, Object argument, Class<T> resultType) {
		return startUpdate(updateName, argument, resultType, UpdateOptions.defaults().waitFor(UpdateStage.COMPLETED))
			.result();
	}

	@Override
	public <W, A, T> UpdateHandle<T> startUpdate(Functions.Func1<W, A, T> updateMethod, A argument,
			UpdateOptions options) {
		return startUpdate(MessageClient.handlerName(updateMethod, Kind.UPDATE), argument, returnType(updateMethod),
				options);
	}

	@Override
	public <T> UpdateHandle<T> startUpdate(String updateName, Object argument, Class<T> resultType,
			UpdateOptions options) {
		return startUpdate(updateName, argument, (Type) resultType, options);
	}

	private <T> UpdateHandle<T> startUpdate(String updateName, Object argument, Type resultType, UpdateOptions options) {
		return messages().startUpdate(row(), updateName, argument, resultType,
				(options != null) ? options : UpdateOptions.defaults());
	}

	@Override
	public <T> UpdateHandle<T> updateHandle(String updateId, Class<T> resultType) {
		return messages().updateHandle(this.workflowId, updateId, resultType);
	}

	@Override
	public void cancel(String reason) {
		RunRow row = row();
		byte[] payload = (reason != null) ? reason.getBytes(StandardCharsets.UTF_8) : null;
		Optional<Optional<UUID>> owner = this.engine.tx()
			.execute((status) -> this.engine.runs().sendToInbox(row.runId(), "CANCEL", null, payload));
		if (owner == null || owner.isEmpty()) {
			throw closed(row);
		}
		this.engine.wake(row.runId(), owner.get().orElse(null));
	}

	@Override
	public void terminate(String reason) {
		RunRow row = row();
		List<UUID> woken = this.engine.listeners().closed(row, "TERMINATED", this.engine.tx()
			.execute((status) -> this.engine.runs().terminateAndWake(row.runId(), reason, this.engine.clock().instant())));
		if (woken == null) {
			throw closed(row);
		}
		this.engine.waiters().closed(row.runId());
		this.engine.wake(row.runId(), row.owner());
		woken.forEach((other) -> this.engine.wake(other, null));
	}

	@Override
	public UUID reset(long eventId, String reason) {
		RunRow row = row();
		ResetRepository.Reset reset = this.engine.tx()
			.execute((status) -> new ResetRepository(this.engine.runs(), this.engine.tasks()).reset(row, eventId, reason,
					this.engine.clock().instant()));
		this.engine.waiters().closed(row.runId());
		if (reset.closedBase()) {
			this.engine.listeners().runClosed(row, "TERMINATED");
			this.engine.wake(row.runId(), row.owner());
		}
		if (reset.carriesHistory()) {
			this.engine.runs().find(reset.runId()).ifPresent(this.engine.listeners()::runStarted);
		}
		this.engine.wake(reset.runId(), null);
		reset.wake().forEach((other) -> this.engine.wake(other, null));
		return reset.runId();
	}

	private WorkflowClosedException closed(RunRow row) {
		RunRow now = this.engine.runs().find(row.runId()).orElse(row);
		return new WorkflowClosedException("Workflow " + this.workflowId + " (run " + row.runId() + ") is closed: "
				+ now.status());
	}

	@Override
	public WorkflowDescription describe() {
		RunRow row = row();
		List<PendingActivity> pending = row.isOpen() ? pendingActivities(row) : List.of();
		VisibilityRepository.Stored attributes = this.engine.runs().visibility().attributes(row.runId());
		return new WorkflowDescription(row.workflowId(), row.runId(), row.workflowType(), row.taskQueue(),
				WorkflowStatus.valueOf(row.status()), row.createdAt(), row.closedAt(), row.historySeq(),
				row.taskFailure(), row.taskAttempt(), pending, row.unfinishedHandlers(),
				java.util.Collections.unmodifiableMap(attributes.memo()),
				Attributes.searchView(attributes.searchAttributes()));
	}

	/**
	 * The activities the run's history leaves awaited, with the attempt, retry time and last
	 * failure of their row when they have one (an inline activity's first attempt has none).
	 */
	private List<PendingActivity> pendingActivities(RunRow row) {
		if (!this.engine.runs().hasActivities(row.runId())) {
			return List.of(); // no history to read
		}
		java.util.Map<Long, PendingActivity> pending = new java.util.LinkedHashMap<>();
		for (dev.durable.workflow.internal.history.TaskRecord task : this.engine.tasks().history(row.runId())) {
			for (dev.durable.workflow.internal.history.Event event : task.events()) {
				switch (event.type()) {
					case ACTIVITY_SCHEDULED -> pending.put(event.seq(),
							new PendingActivity(event.seq(), event.name(), 1, task.time(), task.time(), null));
					case ACTIVITY_COMPLETED, ACTIVITY_FAILED, ACTIVITY_CANCEL_REQUESTED -> pending.remove(event.seq());
					default -> {
					}
				}
			}
		}
		for (StoredActivity a : this.engine.activities().pending(row.runId())) {
			pending.computeIfPresent(a.seq(), (seq, scheduled) -> new PendingActivity(a.seq(), a.activityType(),
					a.attempt(), a.scheduledAt(), a.nextAttemptAt(),
					(a.lastFailure() != null) ? InternalJson.read(a.lastFailure(), FailureInfo.class).summary() : null));
		}
		return List.copyOf(pending.values());
	}

	@Override
	public List<HistoryEvent> history() {
		RunRow row = row();
		return HistoryEvents.of(row, this.engine.tasks().history(row.runId()), this.engine.payloads().converter());
	}

}
