package dev.durable.workflow.autoconfigure.actuate;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.observation.transport.SenderContext;
import org.jspecify.annotations.Nullable;

import dev.durable.workflow.engine.WorkflowEngineListener;
import dev.durable.workflow.engine.WorkflowInterceptor;

/**
 * Wraps the engine's client calls, workflow tasks and activity attempts in Micrometer
 * {@link Observation Observations}: {@code durable.workflow.client} (low-cardinality keys
 * {@code operation} and {@code type}), {@code durable.workflow.task} and
 * {@code durable.workflow.activity} (key {@code type}; high-cardinality
 * {@code workflow.id}, {@code run.id}, and {@code attempt} for activities).
 * <p>
 * The client observation is a sender and the task and activity observations are receivers
 * of the run's headers, so with Micrometer Tracing the trace of the caller (an HTTP
 * request that starts a run) continues through every workflow task and activity of the
 * run, on any node and after restarts: the tracing handlers inject the trace context into
 * the start's headers, which are stored with the run, and extract it around each piece of
 * work. The observations' scopes are open on the threads that run the work, so the
 * tracer's logging context ({@code traceId}, {@code spanId}) is in the MDC of activity
 * code.
 */
public class WorkflowObservationInterceptor implements WorkflowInterceptor {

	private static final String TASK = "durable.workflow.task";

	private final ObservationRegistry registry;

	public WorkflowObservationInterceptor(ObservationRegistry registry) {
		this.registry = registry;
	}

	@Override
	public <R> R interceptClient(ClientCall call, Supplier<R> next) {
		SenderContext<Map<String, String>> context = new SenderContext<>(
				(carrier, key, value) -> carrier.put(key, value));
		context.setCarrier(call.headers());
		return Observation.createNotStarted("durable.workflow.client", () -> context, this.registry)
			.contextualName(
					"durable " + call.operation().name().toLowerCase(java.util.Locale.ROOT) + " " + call.workflowType())
			.lowCardinalityKeyValue("operation", call.operation().name())
			.lowCardinalityKeyValue("type", call.workflowType())
			.highCardinalityKeyValue("workflow.id", String.valueOf(call.workflowId()))
			.observe(next);
	}

	@Override
	public void interceptWorkflowTask(WorkflowTaskCall call, Runnable next) {
		receiver(TASK, call.headers()).contextualName("workflow task " + call.run().workflowType())
			.lowCardinalityKeyValue("type", call.run().workflowType())
			.highCardinalityKeyValue("workflow.id", call.run().workflowId())
			.highCardinalityKeyValue("run.id", call.run().runId().toString())
			.observe(next);
	}

	@Override
	public @Nullable Object interceptActivity(ActivityCall call, Callable<@Nullable Object> next) throws Exception {
		Observation observation = receiver("durable.workflow.activity", call.headers())
			.contextualName("activity " + call.activity().activityType())
			.lowCardinalityKeyValue("type", call.activity().activityType())
			.highCardinalityKeyValue("workflow.id", call.activity().workflowId())
			.highCardinalityKeyValue("run.id", call.activity().runId().toString())
			.highCardinalityKeyValue("attempt", String.valueOf(call.activity().attempt()));
		observation.start();
		try (Observation.Scope scope = observation.openScope()) {
			return next.call();
		}
		catch (Exception | Error ex) {
			observation.error(ex);
			throw ex;
		}
		finally {
			observation.stop();
		}
	}

	/**
	 * The listener that marks a workflow task's observation with the task's failure: the
	 * engine records a failing task (the workflow code threw, its history does not
	 * replay) instead of throwing it through the interceptors, so without it the
	 * observation, and the {@code durable.workflow.task} timer, would say
	 * {@code error="none"}.
	 */
	WorkflowEngineListener taskFailures() {
		return new WorkflowEngineListener() {
			@Override
			public Execution workflowTaskStarted(Run run) {
				// called inside interceptWorkflowTask: the task's observation is current
				Observation task = WorkflowObservationInterceptor.this.registry.getCurrentObservation();
				if (task == null || !TASK.equals(task.getContext().getName())) {
					return Execution.NONE;
				}
				return (failure) -> {
					if (failure != null) {
						task.error(failure);
					}
				};
			}
		};
	}

	private Observation receiver(String name, Map<String, String> headers) {
		ReceiverContext<Map<String, String>> context = new ReceiverContext<>((carrier, key) -> carrier.get(key));
		context.setCarrier(headers);
		return Observation.createNotStarted(name, () -> context, this.registry);
	}

}
