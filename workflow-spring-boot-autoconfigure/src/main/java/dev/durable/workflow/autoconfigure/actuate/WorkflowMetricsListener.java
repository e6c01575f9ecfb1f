package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import java.util.Locale;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngineListener;

/**
 * Records the engine's events as Micrometer meters:
 * <ul>
 * <li>{@code durable.workflow.runs.started} (counter; tag {@code type}): runs whose first
 * workflow task committed on this node;</li>
 * <li>{@code durable.workflow.runs.completed} (counter; tags {@code type},
 * {@code outcome}: completed, failed, canceled, terminated, timed_out,
 * continued_as_new);</li>
 * <li>{@code durable.workflow.task.latency} (timer; tags {@code type}, {@code outcome}:
 * success, failure): workflow tasks, replay and commit included;</li>
 * <li>{@code durable.workflow.activity.duration} (timer; tags {@code type}, the activity
 * type, and {@code outcome}: completed, failed): activity attempts;</li>
 * <li>{@code durable.workflow.activity.retries} (counter; tag {@code type}): failed
 * attempts that are retried;</li>
 * <li>{@code durable.workflow.activity.schedule.to.start} (timer; tag {@code type}): how
 * long attempts waited to start once due.</li>
 * </ul>
 */
public class WorkflowMetricsListener implements WorkflowEngineListener {

	private final MeterRegistry registry;

	public WorkflowMetricsListener(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void runStarted(Run run) {
		Counter.builder("durable.workflow.runs.started")
			.description("Workflow runs started")
			.tag("type", run.workflowType())
			.register(this.registry)
			.increment();
	}

	@Override
	public void runClosed(Run run, WorkflowStatus status) {
		Counter.builder("durable.workflow.runs.completed")
			.description("Workflow runs closed, by outcome")
			.tag("type", run.workflowType())
			.tag("outcome", status.name().toLowerCase(Locale.ROOT))
			.register(this.registry)
			.increment();
	}

	@Override
	public Execution workflowTaskStarted(Run run) {
		Timer.Sample sample = Timer.start(this.registry);
		return (failure) -> sample.stop(Timer.builder("durable.workflow.task.latency")
			.description("Workflow task latency: replay, workflow code and commit")
			.tag("type", run.workflowType())
			.tag("outcome", (failure != null) ? "failure" : "success")
			.register(this.registry));
	}

	@Override
	public Execution activityStarted(ActivityInfo activity, Duration scheduleToStart) {
		Timer.builder("durable.workflow.activity.schedule.to.start")
			.description("Time activity attempts waited to start once due")
			.tag("type", activity.activityType())
			.register(this.registry)
			.record(scheduleToStart);
		Timer.Sample sample = Timer.start(this.registry);
		return (failure) -> sample.stop(Timer.builder("durable.workflow.activity.duration")
			.description("Activity attempt duration")
			.tag("type", activity.activityType())
			.tag("outcome", (failure != null) ? "failed" : "completed")
			.register(this.registry));
	}

	@Override
	public void activityFailed(ActivityInfo activity, String failureType, boolean retrying) {
		if (retrying) {
			Counter.builder("durable.workflow.activity.retries")
				.description("Failed activity attempts that are retried")
				.tag("type", activity.activityType())
				.register(this.registry)
				.increment();
		}
	}

}
