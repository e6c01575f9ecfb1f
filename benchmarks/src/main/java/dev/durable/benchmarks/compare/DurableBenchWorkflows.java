package dev.durable.benchmarks.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;

import dev.durable.workflow.EventMatch;
import dev.durable.workflow.Promise;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;

/** The scenarios' workflows and their no-op activity, written for Durable. */
public final class DurableBenchWorkflows {

	/**
	 * The activity task queue of {@link TaskQueueSteps}, served by a second engine of its
	 * own.
	 */
	public static final String TASK_QUEUE = "bench-tq";

	/** The topic the runs of {@link EventWaitWorkflow} wait on. */
	public static final String TOPIC = "bench-topic";

	private DurableBenchWorkflows() {
	}

	/** A step that does nothing: the engine's cost of one recorded step, nothing else. */
	@Activity
	public static class NoopSteps {

		public int noop(int index) {
			return index;
		}

	}

	/**
	 * The same no-op step on the task queue {@value #TASK_QUEUE}: the workflow's node
	 * writes the attempt to the database and a node serving that queue claims and runs
	 * it. A type name of its own, so that the engine never takes it for the inline
	 * {@code noop} the workflow node registers.
	 */
	@Activity
	public interface TaskQueueSteps {

		@ActivityMethod(name = "noop-on-task-queue", taskQueue = TASK_QUEUE)
		int noop(int index);

	}

	/**
	 * The task-queue no-op, registered only on the node that serves {@value #TASK_QUEUE}.
	 */
	public static class TaskQueueNoopSteps implements TaskQueueSteps {

		@Override
		public int noop(int index) {
			return index;
		}

	}

	/** Runs {@code steps} no-op steps one after another. */
	@Workflow("bench-steps")
	public static class StepsWorkflow {

		private final NoopSteps steps;

		public StepsWorkflow(NoopSteps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public int run(int count) {
			return oneAfterAnother(count, this.steps::noop);
		}

	}

	/**
	 * Runs {@code steps} no-op steps as local activities, one after another: they run in
	 * the start's workflow task and commit with it (opt-in, a weaker guarantee: see the
	 * README).
	 */
	@Workflow("bench-local-steps")
	public static class LocalStepsWorkflow {

		@WorkflowRun
		public int run(int count) {
			NoopSteps steps = Workflows.localActivities(NoopSteps.class);
			return oneAfterAnother(count, steps::noop);
		}

	}

	/** Runs {@code steps} no-op steps on the task queue, one after another. */
	@Workflow("bench-task-queue-steps")
	public static class TaskQueueStepsWorkflow {

		private final TaskQueueSteps steps;

		public TaskQueueStepsWorkflow(TaskQueueSteps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public int run(int count) {
			return oneAfterAnother(count, this.steps::noop);
		}

	}

	/**
	 * The steps workflows' body: {@code count} steps, each after the previous one's
	 * result.
	 */
	static int oneAfterAnother(int count, IntUnaryOperator step) {
		int sum = 0;
		for (int i = 0; i < count; i++) {
			sum += step.applyAsInt(i);
		}
		return sum;
	}

	/** Waits for the signal {@code go} and returns its payload. */
	@Workflow(value = "bench-wait", receives = { "go" })
	public static class WaitWorkflow {

		@WorkflowRun
		public String run() {
			if (!Workflows.isReplaying()) {
				ParkProbe.reached();
			}
			return Workflows.receive("go", String.class);
		}

	}

	/**
	 * Waits for the next event on {@value #TOPIC} (any payload) and returns its position
	 * on the topic.
	 */
	@Workflow("bench-event-wait")
	public static class EventWaitWorkflow {

		@WorkflowRun
		public long run() {
			return Workflows.awaitEvent(TOPIC, EventMatch.any(), Map.class).position();
		}

	}

	/** Returns its input: the engine's cost of a run with nothing in it. */
	@Workflow("bench-echo")
	public static class EchoWorkflow {

		@WorkflowRun
		public String run(String input) {
			return input;
		}

	}

	/**
	 * Builds a long history for the replay scenario: {@code batches} rounds of
	 * {@code width} no-op steps started together (each step records a scheduled and a
	 * completed event).
	 */
	@Workflow("bench-long-history")
	public static class LongHistoryWorkflow {

		private final NoopSteps steps;

		public LongHistoryWorkflow(NoopSteps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public int run(Shape shape) {
			int batches = shape.batches();
			int width = shape.width();
			int sum = 0;
			for (int b = 0; b < batches; b++) {
				List<Promise<Integer>> round = new ArrayList<>();
				for (int i = 0; i < width; i++) {
					int index = b * width + i;
					round.add(Workflows.async(() -> this.steps.noop(index)));
				}
				for (Promise<Integer> step : round) {
					sum += step.get();
				}
			}
			return sum;
		}

	}

	/**
	 * The shape of a long history.
	 *
	 * @param batches rounds of steps, one after another
	 * @param width steps started together in each round
	 */
	public record Shape(int batches, int width) {
	}

}
