package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import dev.durable.workflow.ActivityInfo;
import dev.durable.workflow.WorkflowEngineListener;

/**
 * Wraps workflow tasks and activity attempts in Micrometer {@link Observation Observations}:
 * {@code durable.workflow.task} and {@code durable.workflow.activity}, with the low-cardinality
 * key {@code type} (workflow or activity type) and the high-cardinality keys {@code workflow.id},
 * {@code run.id} (and {@code attempt} for activities). The observation's scope is open on the
 * thread that runs the activity method, so its calls join the trace.
 */
public class WorkflowObservationListener implements WorkflowEngineListener {

	private final ObservationRegistry registry;

	public WorkflowObservationListener(ObservationRegistry registry) {
		this.registry = registry;
	}

	@Override
	public Execution workflowTaskStarted(Run run) {
		Observation observation = Observation.createNotStarted("durable.workflow.task", this.registry)
			.contextualName("workflow task " + run.workflowType())
			.lowCardinalityKeyValue("type", run.workflowType())
			.highCardinalityKeyValue("workflow.id", run.workflowId())
			.highCardinalityKeyValue("run.id", run.runId().toString());
		return observe(observation);
	}

	@Override
	public Execution activityStarted(ActivityInfo activity, Duration scheduleToStart) {
		Observation observation = Observation.createNotStarted("durable.workflow.activity", this.registry)
			.contextualName("activity " + activity.activityType())
			.lowCardinalityKeyValue("type", activity.activityType())
			.highCardinalityKeyValue("workflow.id", activity.workflowId())
			.highCardinalityKeyValue("run.id", activity.runId().toString())
			.highCardinalityKeyValue("attempt", String.valueOf(activity.attempt()));
		return observe(observation);
	}

	private static Execution observe(Observation observation) {
		observation.start();
		Observation.Scope scope = observation.openScope();
		return (failure) -> {
			scope.close();
			if (failure != null) {
				observation.error(failure);
			}
			observation.stop();
		};
	}

}
