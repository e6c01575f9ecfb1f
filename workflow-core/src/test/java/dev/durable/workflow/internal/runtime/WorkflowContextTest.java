package dev.durable.workflow.internal.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.SideEffect;
import dev.durable.workflow.internal.history.Event.TimerStarted;
import dev.durable.workflow.internal.history.EventType;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.payload.JsonPayloadConverter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * {@code Workflows.*} reaches the run through its {@link WorkflowContext}: the calls of
 * workflow code number their commands in issue order, read the task's recorded time, and
 * see the history limits the runner was built with; outside workflow code there is no
 * context.
 */
class WorkflowContextTest {

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	/** What the workflow code saw, per run (the instance is created by the runner). */
	static final List<Object> SEEN = new ArrayList<>();

	private final List<WorkflowRunner> runners = new ArrayList<>();

	@AfterEach
	void destroy() {
		this.runners.forEach(WorkflowRunner::destroy);
		SEEN.clear();
	}

	@Workflow("context-sleeper")
	public static class Sleeper {

		@WorkflowRun
		public String run() {
			SEEN.add(Workflows.now());
			SEEN.add(Workflows.info().continueAsNewSuggested());
			Workflows.sideEffect(String.class, () -> "recorded");
			Workflows.newTimer(Duration.ofMinutes(1));
			Workflows.sleep(Duration.ofHours(1));
			return "woke";
		}

	}

	private WorkflowRunner runner(EngineSettings.HistoryLimits limits) {
		WorkflowRunner runner = new WorkflowRunner(
				new RunIdentity("default", "wf-1", UUID.randomUUID(), "context-sleeper", "default"),
				WorkflowDefinition.of(Sleeper.class), (type) -> new Sleeper(),
				new Payloads(new JsonPayloadConverter(), Integer.MAX_VALUE), Duration.ofSeconds(5), limits,
				LocalActivityInvoker.NONE);
		this.runners.add(runner);
		return runner;
	}

	@Test
	void commandsAreNumberedInIssueOrderAndTimedByTheTask() {
		WorkflowRunner runner = runner(EngineSettings.HistoryLimits.DEFAULT);

		TaskResult result = runner.execute(T0, List.of(Event.workflowStarted("context-sleeper", null)));

		assertThat(result.commands()).extracting(Event::type)
			.containsExactly(EventType.SIDE_EFFECT, EventType.TIMER_STARTED, EventType.TIMER_STARTED);
		assertThat(result.commands().get(0)).isInstanceOfSatisfying(SideEffect.class,
				(sideEffect) -> assertThat(sideEffect.seq()).isEqualTo(1L));
		assertThat(result.commands().subList(1, 3)).map(TimerStarted.class::cast)
			.extracting(TimerStarted::seq, TimerStarted::fireAt)
			.containsExactly(tuple(2L, T0.plus(Duration.ofMinutes(1))), tuple(3L, T0.plus(Duration.ofHours(1))));
		assertThat(SEEN).first().isEqualTo(T0);
		assertThat(runner.nextTimer()).isEqualTo(T0.plus(Duration.ofMinutes(1)));
	}

	@Test
	void infoSuggestsContinueAsNewByTheRunnersHistoryLimits() {
		runner(EngineSettings.HistoryLimits.DEFAULT).execute(T0,
				List.of(Event.workflowStarted("context-sleeper", null)));
		runner(new EngineSettings.HistoryLimits(0, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE)).execute(T0,
				List.of(Event.workflowStarted("context-sleeper", null)));

		assertThat(SEEN).containsExactly(T0, false, T0, true);
	}

	@Test
	void thereIsNoContextOutsideWorkflowCode() {
		assertThatThrownBy(WorkflowThread::context).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("only be called from workflow code");
		assertThatThrownBy(Workflows::now).isInstanceOf(IllegalStateException.class);
	}

}
