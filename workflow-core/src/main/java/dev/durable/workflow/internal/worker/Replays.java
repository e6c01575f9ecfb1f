package dev.durable.workflow.internal.worker;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.replay.ReplayFailures;
import dev.durable.workflow.internal.runtime.LocalActivityInvoker;
import dev.durable.workflow.internal.runtime.RunIdentity;
import dev.durable.workflow.internal.runtime.WorkflowTaskFailedException;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.RunChain;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.support.Payloads;

/**
 * Builds a run's state machine and replays its stored history: for tasks, queries and
 * tests.
 */
final class Replays {

	private Replays() {
	}

	static WorkflowRunner newRunner(RunRow row, WorkflowDefinition definition, Function<Class<?>, Object> factory,
			Payloads payloads, EngineSettings config) {
		return newRunner(row, definition, factory, payloads, config, config.taskTimeout(), LocalActivityInvoker.NONE);
	}

	/**
	 * A runner whose workflow tasks may run for the given time (the run's own task
	 * timeout) and run local activities with the given invoker.
	 */
	static WorkflowRunner newRunner(RunRow row, WorkflowDefinition definition, Function<Class<?>, Object> factory,
			Payloads payloads, EngineSettings config, java.time.Duration taskTimeout, LocalActivityInvoker locals) {
		return new WorkflowRunner(identity(row), definition, factory, payloads, taskTimeout, config.historyLimits(),
				locals);
	}

	/**
	 * The state machine of a run for its next workflow task on this node: its recorded
	 * tasks replayed, with the run's own task timeout when it has one.
	 */
	static WorkflowRunner forTask(RunRow row, WorkflowDefinition definition, Function<Class<?>, Object> factory,
			Payloads payloads, EngineSettings config, RunChain chain, List<TaskRecord> history,
			LocalActivityInvoker locals) {
		if (definition == null) {
			throw new IllegalStateException(
					"Workflow type '" + row.workflowType() + "' is not registered on this node");
		}
		WorkflowRunner runner = newRunner(row, definition, factory, payloads, config,
				(chain != null && chain.taskTimeout() != null) ? chain.taskTimeout() : config.taskTimeout(), locals);
		replay(runner, history, (record, issued) -> {
		});
		return runner;
	}

	/**
	 * Replays a run's history on a fresh instance, outside any worker; see
	 * {@link Engine#replay}.
	 */
	static List<Engine.ReplayedTask> fromScratch(RunRow row, WorkflowDefinition definition,
			Function<Class<?>, Object> factory, Payloads payloads, EngineSettings config, List<TaskRecord> history) {
		if (definition == null) {
			throw new IllegalArgumentException("Workflow type '" + row.workflowType() + "' is not registered here");
		}
		return fromScratch(identity(row), definition, factory, payloads, config, history);
	}

	/**
	 * Replays a history on a fresh instance, outside any worker: a mismatch fails as a
	 * {@link WorkflowTaskFailedException} caused by the mismatch named with the workflow
	 * task and its recorded commands ({@link ReplayFailures#explain}).
	 */
	static List<Engine.ReplayedTask> fromScratch(RunIdentity identity, WorkflowDefinition definition,
			Function<Class<?>, Object> factory, Payloads payloads, EngineSettings config, List<TaskRecord> history) {
		WorkflowRunner runner = new WorkflowRunner(identity, definition, factory, payloads, config.taskTimeout(),
				config.historyLimits(), LocalActivityInvoker.NONE);
		List<Engine.ReplayedTask> replayed = new java.util.ArrayList<>();
		try {
			for (TaskRecord record : history) {
				if (record.writtenOutsideTasks()) {
					break;
				}
				try {
					replayed.add(new Engine.ReplayedTask(record, runner.replay(record)));
				}
				catch (RuntimeException ex) {
					RuntimeException explained = ReplayFailures.explain(ex, record, identity);
					// a failed task, as a worker's replay fails it, caused by the
					// mismatch named with its task
					throw (explained == ex) ? ex : new WorkflowTaskFailedException(explained.getMessage(), explained);
				}
			}
		}
		finally {
			runner.destroy();
		}
		return replayed;
	}

	private static RunIdentity identity(RunRow row) {
		return new RunIdentity(row.namespace(), row.workflowId(), row.runId(), row.workflowType(), row.taskQueue());
	}

	/**
	 * Replays the recorded workflow tasks, stopping at a row the engine wrote outside any
	 * task (terminate, timeout): no workflow code produced it.
	 */
	static void replay(WorkflowRunner runner, List<TaskRecord> history, BiConsumer<TaskRecord, List<Event>> issued) {
		for (TaskRecord record : history) {
			if (record.writtenOutsideTasks()) {
				return;
			}
			issued.accept(record, runner.replay(record));
		}
	}

}
