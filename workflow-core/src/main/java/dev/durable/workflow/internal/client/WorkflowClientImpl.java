package dev.durable.workflow.internal.client;

import java.io.Serializable;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.WorkflowMethodReference;
import dev.durable.workflow.client.PublishedEvent;
import dev.durable.workflow.client.ActivityCompletionClient;
import dev.durable.workflow.client.DebounceOptions;
import dev.durable.workflow.client.DebouncedStart;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UpdateHandle;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.client.TopicStatus;
import dev.durable.workflow.client.WorkerBuilds;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.client.WorkflowPage;
import dev.durable.workflow.client.batch.BatchRequest;
import dev.durable.workflow.client.batch.BatchStatus;
import dev.durable.workflow.client.schedule.ScheduleClient;
import dev.durable.workflow.engine.HandlerKind;
import dev.durable.workflow.internal.batch.Batches;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;

/** The client: starts runs (with id policies) and hands out handles. */
public final class WorkflowClientImpl implements WorkflowClient {

	private final RunStarter starter;

	private final HandleOperations operations;

	private final WorkflowRegistry workflows;

	private final RunRepository runs;

	private final String namespace;

	private final ScheduleClient schedules;

	private final ActivityCompletionClient completions;

	private final Batches batches;

	private final Debouncer debouncer;

	private final TopicClient topics;

	public WorkflowClientImpl(RunStarter starter, HandleOperations operations, WorkflowRegistry workflows,
			RunRepository runs, String namespace, ScheduleClient schedules, ActivityCompletionClient completions,
			Debouncer debouncer, Batches batches, TopicClient topics) {
		this.topics = topics;
		this.debouncer = debouncer;
		this.completions = completions;
		this.batches = batches;
		this.starter = starter;
		this.operations = operations;
		this.workflows = workflows;
		this.runs = runs;
		this.namespace = namespace;
		this.schedules = schedules;
	}

	@Override
	public ScheduleClient schedules() {
		return this.schedules;
	}

	@Override
	public PublishedEvent publish(String topic, Object payload, String eventId) {
		return this.topics.publish(topic, payload, eventId);
	}

	@Override
	public List<TopicStatus> topics() {
		return this.topics.topics();
	}

	@Override
	public WorkerBuilds builds() {
		return this.operations.builds();
	}

	@Override
	public <W, A, R> WorkflowHandle<R> start(WorkflowMethodReference.Func1<W, A, R> workflow, A input,
			StartOptions options) {
		return startTyped(workflow, input, options);
	}

	@Override
	public <W, R> WorkflowHandle<R> start(WorkflowMethodReference.Func0<W, R> workflow, StartOptions options) {
		return startTyped(workflow, null, options);
	}

	@Override
	public <W, A> WorkflowHandle<Void> start(WorkflowMethodReference.Proc1<W, A> workflow, A input,
			StartOptions options) {
		return startTyped(workflow, input, options);
	}

	private <R> WorkflowHandle<R> startTyped(Serializable reference, Object input, StartOptions options) {
		WorkflowDefinition definition = definitionOf(reference);
		definition.checkInput(input);
		RunStarter.Started started = this.starter.startRun(definition.typeName(), definition.inputType(), input,
				options);
		return WorkflowHandleImpl.started(this.operations, started, definition.typeName(), definition.resultType());
	}

	@Override
	public WorkflowHandle<Object> start(String workflowType, Object input, StartOptions options) {
		WorkflowDefinition definition = checkedInput(workflowType, input);
		// a dynamic workflow gets the input as sent: encoded by its own class
		Type inputType = (definition != null && !definition.isDynamic()) ? definition.inputType() : Object.class;
		RunStarter.Started started = this.starter.startRun(workflowType, inputType, input, options);
		Type resultType = (definition != null) ? definition.resultType() : Object.class;
		return WorkflowHandleImpl.started(this.operations, started, workflowType, resultType);
	}

	@Override
	public <W, A, R> DebouncedStart debounce(WorkflowMethodReference.Func1<W, A, R> workflow, A input,
			DebounceOptions options) {
		WorkflowDefinition definition = definitionOf(workflow);
		definition.checkInput(input);
		return this.debouncer.call(definition.typeName(), definition.inputType(), input, options);
	}

	@Override
	public DebouncedStart debounce(String workflowType, Object input, DebounceOptions options) {
		WorkflowDefinition definition = checkedInput(workflowType, input);
		return this.debouncer.call(workflowType,
				(definition != null && !definition.isDynamic()) ? definition.inputType() : Object.class, input,
				options);
	}

	@Override
	public <W, A, R> WorkflowHandle<R> signalWithStart(WorkflowMethodReference.Func1<W, A, R> workflow, A input,
			StartOptions options, String signalName, Object signalPayload) {
		WorkflowDefinition definition = definitionOf(workflow);
		definition.checkInput(input);
		byte[] payload = this.operations.messages()
			.encode(definition.typeName(), HandlerKind.SIGNAL, signalName, signalPayload, false);
		RunStarter.Started started = this.starter.startRun(definition.typeName(), definition.inputType(), input,
				options, new RunStarter.WithStart(InboxKind.SIGNAL, signalName, payload, null));
		return WorkflowHandleImpl.started(this.operations, started, definition.typeName(), definition.resultType());
	}

	@Override
	public WorkflowHandle<Object> signalWithStart(String workflowType, Object input, StartOptions options,
			String signalName, Object signalPayload) {
		WorkflowDefinition definition = checkedInput(workflowType, input);
		byte[] payload = this.operations.messages()
			.encode(workflowType, HandlerKind.SIGNAL, signalName, signalPayload, false);
		RunStarter.Started started = this.starter.startRun(workflowType,
				(definition != null && !definition.isDynamic()) ? definition.inputType() : Object.class, input, options,
				new RunStarter.WithStart(InboxKind.SIGNAL, signalName, payload, null));
		return WorkflowHandleImpl.started(this.operations, started, workflowType,
				(definition != null) ? definition.resultType() : Object.class);
	}

	@Override
	public <W, A, R, T> UpdateHandle<T> updateWithStart(WorkflowMethodReference.Func1<W, A, R> workflow, A input,
			StartOptions options, String updateName, Object updateArgument, Class<T> resultType,
			UpdateOptions updateOptions) {
		// FAIL (the default, as in Temporal): an open run makes the whole call fail,
		// update and all
		StartOptions start = (options != null) ? options : StartOptions.DEFAULT;
		WorkflowDefinition definition = definitionOf(workflow);
		definition.checkInput(input);
		byte[] payload = this.operations.messages()
			.encode(definition.typeName(), HandlerKind.UPDATE, updateName, updateArgument, true);
		UpdateOptions effective = (updateOptions != null) ? updateOptions
				: UpdateOptions.defaults().waitFor(UpdateStage.COMPLETED);
		String updateId = (effective.updateId() != null) ? effective.updateId() : UUID.randomUUID().toString();
		RunStarter.Started started = this.starter.startRun(definition.typeName(), definition.inputType(), input, start,
				new RunStarter.WithStart(InboxKind.UPDATE, updateName, payload, updateId));
		UpdateHandleImpl<T> handle = this.operations.messages()
			.updateHandle(started.workflowId(), updateId, resultType);
		handle.waitFor(effective.waitForStage(), null);
		return handle;
	}

	/**
	 * The definition of a type registered on this node, its input checked; {@code null}
	 * for a type this node does not run (the node that runs it reads the input).
	 */
	private @Nullable WorkflowDefinition checkedInput(String workflowType, @Nullable Object input) {
		WorkflowDefinition definition = this.workflows.find(workflowType);
		if (definition != null) {
			definition.checkInput(input);
		}
		return definition;
	}

	private WorkflowDefinition definitionOf(Serializable reference) {
		return WorkflowDefinitions.definition(reference);
	}

	@Override
	public WorkflowHandle<Object> handle(String workflowId) {
		WorkflowIds.check(workflowId);
		return WorkflowHandleImpl.latest(this.operations, workflowId, Object.class);
	}

	@Override
	public WorkflowHandle<Object> handle(String workflowId, UUID runId) {
		WorkflowIds.check(workflowId);
		RunRow row = this.operations.lookup()
			.pinned(workflowId, runId)
			.orElseThrow(() -> new WorkflowNotFoundException("No run " + runId + " of workflow " + workflowId));
		Type resultType = Optional.ofNullable(this.workflows.find(row.workflowType()))
			.map(WorkflowDefinition::resultType)
			.orElse(Object.class);
		return WorkflowHandleImpl.pinned(this.operations, workflowId, runId, resultType);
	}

	@Override
	public <R> WorkflowHandle<R> handle(String workflowId, Class<R> resultType) {
		WorkflowIds.check(workflowId);
		return WorkflowHandleImpl.latest(this.operations, workflowId, resultType);
	}

	@Override
	public WorkflowPage list(WorkflowFilter filter, int pageSize, String pageToken) {
		return this.runs.visibility()
			.list(this.namespace, (filter != null) ? filter : WorkflowFilter.all(), pageSize, pageToken);
	}

	@Override
	public long count(WorkflowFilter filter) {
		return this.runs.visibility().count(this.namespace, (filter != null) ? filter : WorkflowFilter.all());
	}

	@Override
	public ActivityCompletionClient activityCompletion() {
		return this.completions;
	}

	@Override
	public BatchStatus startBatch(BatchRequest request) {
		return this.batches.start(request);
	}

	@Override
	public BatchStatus describeBatch(String batchId) {
		return this.batches.describe(batchId);
	}

	@Override
	public List<BatchStatus> listBatches(int limit) {
		return this.batches.list(limit);
	}

	@Override
	public BatchStatus cancelBatch(String batchId) {
		return this.batches.cancel(batchId);
	}

}
