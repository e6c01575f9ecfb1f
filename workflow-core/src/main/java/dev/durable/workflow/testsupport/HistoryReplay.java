package dev.durable.workflow.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.engine.ReplayCheckReport;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.internal.activity.ActivityStubs;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.registry.ActivityRegistry;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.replay.CheckReplay;
import dev.durable.workflow.internal.replay.HistoryImport;
import dev.durable.workflow.internal.replay.ReplayFailures;
import dev.durable.workflow.internal.runtime.LocalActivityInvoker;
import dev.durable.workflow.internal.runtime.RunIdentity;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.payload.PayloadConverter;

/**
 * Replay of exported histories without a database, for the test kit's
 * {@code WorkflowReplayer}: the engine's own state machine replays the recorded workflow
 * tasks against the current code.
 */
public final class HistoryReplay {

	private HistoryReplay() {
	}

	/**
	 * Reads the JSON of a {@code List<HistoryEvent>}, as {@code handle.history()} or the
	 * REST API export it.
	 */
	public static List<HistoryEvent> parse(String json) {
		return HistoryImport.parse(json);
	}

	/**
	 * Replays one history against the workflow class.
	 * @param factory creates the workflow instance (called with the workflow class)
	 * @throws NonDeterministicWorkflowException when the code issues other commands than
	 * the history holds, naming the workflow task and both commands
	 */
	public static void replay(Class<?> workflowClass, List<HistoryEvent> history, Function<Class<?>, Object> factory) {
		replay(workflowClass, history, factory, List.of());
	}

	/**
	 * Replays one history against the workflow class, with the engine-wide exception
	 * types that fail a run (the engine's {@code failWorkflowExceptionTypes}): a run that
	 * such an exception failed replays only when its type is listed here as it was on the
	 * engine that ran it.
	 * @param factory creates the workflow instance (called with the workflow class)
	 * @throws NonDeterministicWorkflowException when the code issues other commands than
	 * the history holds, naming the workflow task and both commands
	 */
	public static void replay(Class<?> workflowClass, List<HistoryEvent> history, Function<Class<?>, Object> factory,
			List<Class<? extends Throwable>> failWorkflowExceptionTypes) {
		replay(workflowClass, history, factory, failWorkflowExceptionTypes, PayloadConverter.json());
	}

	/**
	 * Replays one history against the workflow class with the engine-wide exception types
	 * that fail a run and the payload converter of the engine that ran it. An exported
	 * payload is either its decoded JSON value, encoded again with this converter, or an
	 * object with the stored bytes ({@code {"$encoded": ...}}, written when the exporting
	 * node could not decode it: an unknown key, a converter that does not write JSON),
	 * decoded by this converter.
	 * @param factory creates the workflow instance (called with the workflow class)
	 * @param converter the converter of the engine that ran the history, e.g. an
	 * {@link dev.durable.workflow.payload.EncryptingPayloadConverter} with the keys of
	 * its payloads
	 * @throws NonDeterministicWorkflowException when the code issues other commands than
	 * the history holds, naming the workflow task and both commands
	 */
	public static void replay(Class<?> workflowClass, List<HistoryEvent> history, Function<Class<?>, Object> factory,
			List<Class<? extends Throwable>> failWorkflowExceptionTypes, PayloadConverter converter) {
		WorkflowDefinition definition = new WorkflowRegistry(failWorkflowExceptionTypes).register(workflowClass);
		RunIdentity identity = HistoryImport.identity(history, definition.typeName());
		List<TaskRecord> records = HistoryImport.records(history, converter);
		WorkflowRunner runner = new WorkflowRunner(identity, definition, factory,
				new Payloads(converter, Integer.MAX_VALUE), Duration.ofSeconds(30),
				EngineSettings.HistoryLimits.DEFAULT, LocalActivityInvoker.NONE);
		try {
			for (TaskRecord record : records) {
				if (record.writtenOutsideTasks()) {
					return;
				}
				try {
					runner.replay(record);
				}
				catch (RuntimeException ex) {
					throw ReplayFailures.explain(ex, record, identity);
				}
			}
		}
		finally {
			runner.destroy();
		}
	}

	/**
	 * Replays exported histories against the given workflow classes, each history on the
	 * class of the type its start names, and reports every history that does not replay
	 * (see {@link WorkflowEngine#checkReplay(Map)}, which does the same with an engine's
	 * classes).
	 * @param histories the histories by name (a file name, say)
	 * @param factory creates the workflow instances (called with the workflow class)
	 * @param converter the converter of the engine that ran the histories
	 */
	public static ReplayCheckReport check(Map<String, List<HistoryEvent>> histories, List<Class<?>> workflowClasses,
			Function<Class<?>, Object> factory, List<Class<? extends Throwable>> failWorkflowExceptionTypes,
			PayloadConverter converter) {
		WorkflowRegistry registry = new WorkflowRegistry(failWorkflowExceptionTypes);
		workflowClasses.forEach(registry::register);
		return CheckReplay.exported(histories, (type) -> registry.find(type) != null,
				(history) -> replay(registry.find(HistoryImport.identity(history, "").workflowType()).workflowClass(),
						history, factory, failWorkflowExceptionTypes, converter));
	}

	/**
	 * The durable proxy of a stand-in for an activity type: in replayed workflow code its
	 * calls only issue commands, as they do in a worker.
	 * @param activityType the {@code @Activity} type a workflow constructor takes
	 * @param stub an instance of it that is never called on replay
	 */
	public static Object replayStub(Class<?> activityType, Object stub) {
		ActivityRegistry registry = new ActivityRegistry(ActivityOptions.DEFAULT);
		registry.register(stub);
		return ActivityStubs.durableProxy(activityType, stub, registry);
	}

}
