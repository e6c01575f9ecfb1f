package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.engine.WorkflowEngineListener;
import dev.durable.workflow.internal.commit.TaskCommit;
import dev.durable.workflow.internal.commit.TaskCommitRepository;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.runtime.TaskResult;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.RunChain;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.internal.support.RunMdc;
import dev.durable.workflow.testsupport.EngineHooks;

/**
 * Eager start: the first workflow task of a run this node starts runs in the caller's
 * thread before the run is stored, and commits with the start, so that nothing of the new
 * run is read back and the start and its first commands share one WAL flush. The client
 * stores it with {@link #insert} (one statement, when the start is plain) or
 * {@link #commit} (inside the start's transaction), then calls {@link #adopt} once the
 * start committed, or {@link #abandon} when it did not.
 */
public final class FirstTasks {

	private static final Logger log = LoggerFactory.getLogger(FirstTasks.class);

	private final WorkflowTaskExecutor executor;

	private final TaskCommitRepository tasks;

	private final EngineHooks hooks;

	private final Listeners listeners;

	private final Clock clock;

	FirstTasks(WorkflowTaskExecutor executor, TaskCommitRepository tasks, EngineHooks hooks, Listeners listeners,
			Clock clock) {
		this.executor = executor;
		this.tasks = tasks;
		this.hooks = hooks;
		this.listeners = listeners;
		this.clock = clock;
	}

	/**
	 * A first task run at a start, with what it committed once it did; opaque to callers.
	 */
	public static final class FirstTask {

		final NewRun run;

		final RunSlot slot;

		final RunRow row;

		final WorkflowRunner runner;

		final TaskCommit commit;

		TaskCommit.Effects effects;

		FirstTask(NewRun run, RunSlot slot, RunRow row, WorkflowRunner runner, TaskCommit commit) {
			this.run = run;
			this.slot = slot;
			this.row = row;
			this.runner = runner;
			this.commit = commit;
		}

		/**
		 * The outcome the run closed with in this task (local activities only), or
		 * {@code null}.
		 */
		public RunRepository.Outcome closedWith() {
			return this.commit.outcome();
		}

	}

	/**
	 * Runs the first task of a run this node is starting (it owns the run), before the
	 * run is stored.
	 * @return the task, or {@code null} when the run must take the normal way (its first
	 * task failed here: it runs, and fails, again as an ordinary task, with backoff)
	 */
	public FirstTask prepare(NewRun run) {
		// inside the workflow-task interceptors, as every other task of the run: what
		// they
		// make current (an observation, a tenant) is current while its code runs
		return this.listeners.interceptors()
			.workflowTask(new WorkflowEngineListener.Run(run.workflowType(), run.workflowId(), run.runId()),
					RunChain.headers(run.chain()), () -> runFirstTask(run));
	}

	private FirstTask runFirstTask(NewRun run) {
		RunRow row = RunRow.started(run);
		// the slot starts from what this task commits: nothing to read before its next
		// task
		RunSlot slot = this.executor.startingSlot(run, row.epoch());
		Instant now = this.clock.instant();
		this.listeners.taskStarted(row);
		WorkflowRunner runner = null;
		try {
			runner = this.executor.rebuild(slot, row);
			TaskResult result = runner.execute(now, List.of(Event.workflowStarted(run.workflowType(), run.input())));
			TaskCommit commit = this.executor.commits().build(slot, row, runner, result, List.of(), now);
			// cached before the run is stored, as a task in progress: a poll that finds
			// the stored run before the start returns waits for this task instead of
			// adopting the run anew
			slot.beginRun();
			slot.lockTask();
			this.executor.slots().put(slot.runId(), slot);
			return new FirstTask(run, slot, row, runner, commit);
		}
		catch (RuntimeException ex) {
			log.debug("First task of run {} did not run at its start; it runs as an ordinary task: {}", run.runId(),
					Errors.rootMessage(ex));
			if (runner != null) {
				runner.destroy();
			}
			this.listeners.taskFailed(ex);
			this.listeners.taskEnded();
			return null;
		}
	}

	/**
	 * Inserts the run with its first task in one statement when that is possible.
	 */
	public Insertion insert(FirstTask task) {
		if (!TaskCommitRepository.isSingleStatementStart(task.run, task.commit)) {
			return Insertion.NOT_ALONE;
		}
		this.hooks.beforeTaskCommit(task.run.runId());
		boolean inserted = this.tasks.insertStarted(task.run, task.commit);
		task.effects = new TaskCommit.Effects(List.of(), List.of());
		return inserted ? Insertion.INSERTED : Insertion.ID_TAKEN;
	}

	/** What {@link #insert} did. */
	public enum Insertion {

		/** The run and its first task were inserted in one statement. */
		INSERTED,

		/** An open run holds the workflow id: nothing was inserted. */
		ID_TAKEN,

		/**
		 * The start cannot be one statement: store the first task with {@link #commit} in
		 * the start's transaction.
		 */
		NOT_ALONE

	}

	/** Inside the start's transaction, after the run's rows: writes its first task. */
	public void commit(FirstTask task) {
		this.hooks.beforeTaskCommit(task.run.runId());
		TaskCommit.Effects effects = TaskCommitRepository.isSingleStatement(task.commit)
				? this.tasks.commitAlone(task.commit) : this.tasks.commit(task.commit);
		if (effects == null) {
			throw new IllegalStateException("The first task of run " + task.run.runId() + " did not match its own row");
		}
		task.effects = effects;
	}

	/** After the start committed: carries out what its first task decided. */
	public void adopt(FirstTask task) {
		RunSlot slot = task.slot;
		try (RunMdc mdc = RunMdc.workflow(task.row.workflowId(), slot.runId(), task.row.workflowType())) {
			this.executor.committed(slot, task.row, task.runner, task.commit, task.effects);
		}
		finally {
			slot.unlockTask();
			slot.usedAt(this.clock.instant());
			this.executor.taskEnded(slot);
			this.listeners.taskEnded();
		}
	}

	/**
	 * Forgets a first task whose start did not commit: its workflow threads end and
	 * listeners see it fail. Nothing of it was stored.
	 * @param task the task, or {@code null}
	 * @param failure why the start did not commit
	 */
	public void abandon(FirstTask task, Throwable failure) {
		if (task == null) {
			return;
		}
		RunSlot slot = task.slot;
		this.executor.drop(slot);
		task.runner.destroy();
		slot.unlockTask();
		this.executor.taskEnded(slot);
		this.listeners.taskFailed(failure);
		this.listeners.taskEnded();
	}

}
