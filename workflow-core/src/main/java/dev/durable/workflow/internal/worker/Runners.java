package dev.durable.workflow.internal.worker;

import java.util.List;
import java.util.function.Function;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.runtime.ActivityAttempts;
import dev.durable.workflow.internal.runtime.LocalActivityInvoker;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.TaskRepository;
import dev.durable.workflow.internal.support.Payloads;

/**
 * Builds the runner of a run this node holds and has not cached: a fresh instance with
 * the run's stored history replayed, ready for the next task.
 */
final class Runners {

	private final WorkflowRegistry workflows;

	private final Function<Class<?>, Object> factory;

	private final Payloads payloads;

	private final EngineSettings config;

	private final RunRepository runs;

	private final TaskRepository tasks;

	private final Function<RunSlot, LocalActivityInvoker> localActivities;

	private final Function<RunSlot, ActivityAttempts> activityAttempts;

	Runners(WorkflowRegistry workflows, Function<Class<?>, Object> factory, Payloads payloads, EngineSettings config,
			RunRepository runs, TaskRepository tasks, Function<RunSlot, LocalActivityInvoker> localActivities,
			Function<RunSlot, ActivityAttempts> activityAttempts) {
		this.activityAttempts = activityAttempts;
		this.workflows = workflows;
		this.factory = factory;
		this.payloads = payloads;
		this.config = config;
		this.runs = runs;
		this.tasks = tasks;
		this.localActivities = localActivities;
	}

	/**
	 * The run's runner, replayed up to the row's history; reads the run's chain once per
	 * slot.
	 */
	WorkflowRunner rebuild(RunSlot slot, RunRow row) {
		List<TaskRecord> history;
		if (row.historySeq() == 0) {
			// a run that has not committed a task has no history to read
			if (!slot.chainKnown()) {
				slot.knowChain(this.runs.chain(row.runId()));
			}
			history = List.of();
		}
		else if (!slot.chainKnown()) {
			TaskRepository.Replayable stored = this.tasks.chainAndHistory(row.runId());
			slot.knowChain(stored.chain());
			history = stored.history();
		}
		else {
			history = this.tasks.history(row.runId());
		}
		WorkflowRunner runner = Replays.forTask(row, this.workflows.find(row.workflowType()), this.factory,
				this.payloads, this.config, slot.chain(), history, this.localActivities.apply(slot));
		// counted only by the tasks after the replay: a replayed cancel holds its count
		runner.countActivityAttemptsWith(this.activityAttempts.apply(slot));
		return runner;
	}

}
