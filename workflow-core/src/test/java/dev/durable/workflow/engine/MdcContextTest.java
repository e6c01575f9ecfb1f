package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.internal.support.RunMdc;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * The MDC names the run while the engine runs its code: workflow code sees
 * {@code workflowId}, {@code runId} and {@code workflowType}; an activity, inline or
 * claimed from a task queue, also {@code activityType}, {@code activityId} and
 * {@code activityAttempt}. What the thread's MDC held before comes back afterwards: the
 * entries a caller set survive a call into the engine.
 */
class MdcContextTest {

	/** The MDC each piece of code saw, by what it was. */
	static final Map<String, Map<String, String>> SEEN = new ConcurrentHashMap<>();

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
		SEEN.clear();
		MDC.clear();
	}

	@Activity
	public static class Greetings {

		@ActivityMethod
		public String greet(String name) {
			SEEN.put("inline", MDC.getCopyOfContextMap());
			return "hello " + name;
		}

		@ActivityMethod(taskQueue = "mdc")
		public String shout(String text) {
			SEEN.put("queued", MDC.getCopyOfContextMap());
			return text.toUpperCase();
		}

	}

	@Workflow("mdc-greeting")
	public static class GreetingWorkflow {

		private final Greetings greetings;

		public GreetingWorkflow(Greetings greetings) {
			this.greetings = greetings;
		}

		@WorkflowRun
		public String run(String name) {
			SEEN.put("workflow", MDC.getCopyOfContextMap());
			return this.greetings.shout(this.greetings.greet(name));
		}

	}

	@Test
	void workflowCodeAndActivitiesSeeTheirRunInTheMdc() {
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(GreetingWorkflow.class)
			.registerActivities(new Greetings())
			.activityTaskQueues("mdc"));
		WorkflowHandle<String> handle = engine.client()
			.start(GreetingWorkflow::run, "ada", StartOptions.withId("mdc-1"));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("HELLO ADA");
		String runId = handle.runId().toString();

		assertThat(SEEN.get("workflow")).contains(entry("workflowId", "mdc-1"), entry("runId", runId),
				entry("workflowType", "mdc-greeting"));
		assertThat(SEEN.get("inline")).contains(entry("workflowId", "mdc-1"), entry("runId", runId),
				entry("workflowType", "mdc-greeting"), entry("activityType", "greet"), entry("activityId", "1"),
				entry("activityAttempt", "1"));
		assertThat(SEEN.get("queued")).contains(entry("workflowId", "mdc-1"), entry("runId", runId),
				entry("workflowType", "mdc-greeting"), entry("activityType", "shout"), entry("activityId", "2"),
				entry("activityAttempt", "1"));
	}

	@Test
	void theCallersMdcSurvivesAStartWhoseFirstTaskRanOnItsThread() {
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(GreetingWorkflow.class)
			.registerActivities(new Greetings())
			.activityTaskQueues("mdc"));
		MDC.put("workflowId", "the-callers-own");
		MDC.put("requestId", "req-7");

		WorkflowHandle<String> handle = engine.client()
			.start(GreetingWorkflow::run, "bob", StartOptions.withId("mdc-2"));

		// the first task ran on this thread (an eager start) and set the run's entries
		// while it did
		assertThat(MDC.get("workflowId")).isEqualTo("the-callers-own");
		assertThat(MDC.get("requestId")).isEqualTo("req-7");
		assertThat(MDC.get("runId")).isNull();
		assertThat(MDC.get("workflowType")).isNull();
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("HELLO BOB");
	}

	@Test
	void closingRestoresWhatTheThreadHeldAndRemovesWhatItDidNot() {
		MDC.put("workflowId", "outer");
		MDC.put("tenant", "acme");
		UUID runId = UUID.randomUUID();
		try (RunMdc mdc = RunMdc.activity("inner", runId, "order", "Payments.charge", 3, 2)) {
			assertThat(MDC.getCopyOfContextMap()).containsOnly(entry("workflowId", "inner"),
					entry("runId", runId.toString()), entry("workflowType", "order"),
					entry("activityType", "Payments.charge"), entry("activityId", "3"), entry("activityAttempt", "2"),
					entry("tenant", "acme"));
		}
		assertThat(MDC.getCopyOfContextMap()).containsOnly(entry("workflowId", "outer"), entry("tenant", "acme"));
	}

}
