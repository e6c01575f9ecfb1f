package dev.durable.workflow.run;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.client.ActivityOptionsUpdate;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.ReplayCheckOptions;
import dev.durable.workflow.engine.ReplayCheckReport;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.run.ActivityOperationsTest.InlineSteps;
import dev.durable.workflow.run.ActivityOperationsTest.Operated;
import dev.durable.workflow.run.ActivityOperationsTest.QueuedSteps;
import dev.durable.workflow.run.ActivityOperationsTest.Steps;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every record an activity operation adds to a run's history (ACTIVITY_PAUSED by an
 * operator and by a retry policy, ACTIVITY_UNPAUSED, ACTIVITY_RESET,
 * ACTIVITY_OPTIONS_UPDATED) is an input the workflow's code never sees: the run replays
 * from the database, the replay check passes, and so does its exported history, which
 * keeps each record's fields.
 */
class ActivityOperationsReplayTest {

	private final Engines engines = new Engines();

	@BeforeEach
	void clear() {
		Steps.ATTEMPTS.clear();
		Steps.DETAILS.clear();
		Steps.succeedFrom = Integer.MAX_VALUE;
		Steps.stopWhenPaused = false;
	}

	@AfterEach
	void close() {
		this.engines.close();
	}

	private static List<String> events(WorkflowHandle<?> handle) {
		return handle.history().stream().map(HistoryEvent::type).toList();
	}

	@Test
	void aRunWithEveryActivityOperationReplays() {
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(Operated.class)
			.activityTaskQueues("ops")
			.registerActivities(new InlineSteps(), new QueuedSteps()));
		WorkflowHandle<String> run = engine.client()
			.start(Operated::run, "inline:patient:replayed", StartOptions.withId("replayed"));
		await().until(() -> Steps.ATTEMPTS.getOrDefault("replayed", List.of()).size() == 1);
		await().until(() -> !run.describe().pendingActivities().isEmpty()
				&& run.describe().pendingActivities().get(0).lastFailure() != null);
		long seq = run.describe().pendingActivities().get(0).activityId();

		run.pauseActivity(seq, "by hand");
		run.updateActivityOptions(seq,
				ActivityOptionsUpdate.of()
					.retryPolicy(RetryPolicy.builder().maximumAttempts(2).pauseWhenExhausted().build())
					.heartbeatTimeout(Duration.ofMinutes(1)));
		run.unpauseActivity(seq);
		this.engines.clock.advance(Duration.ofSeconds(11));
		// attempt 2 fails: the policy pauses it
		await().until(() -> events(run).stream().filter("ACTIVITY_PAUSED"::equals).count() == 2);
		run.resetActivity(seq, false);
		await().until(() -> Steps.ATTEMPTS.get("replayed").size() == 3 && !engine.quiescence().anyActivityInFlight());
		Steps.succeedFrom = 1;
		run.resetActivity(seq, true);
		assertThat(run.result(Duration.ofSeconds(20))).isEqualTo("replayed done at attempt 1");
		assertThat(events(run)).containsSubsequence("ACTIVITY_SCHEDULED", "ACTIVITY_PAUSED", "ACTIVITY_OPTIONS_UPDATED",
				"ACTIVITY_UNPAUSED", "ACTIVITY_PAUSED", "ACTIVITY_RESET", "ACTIVITY_COMPLETED", "WORKFLOW_COMPLETED");

		List<HistoryEvent> history = run.history();
		assertThat(history).filteredOn((event) -> event.type().equals("ACTIVITY_PAUSED"))
			.extracting((event) -> event.attributes().get("reason"))
			.containsExactly("by hand", "activity paused after 2 attempts: its retry policy's attempts are exhausted");
		assertThat(history).filteredOn((event) -> event.type().equals("ACTIVITY_OPTIONS_UPDATED"))
			.singleElement()
			.satisfies((event) -> assertThat(event.attributes()).containsKey("options"));
		assertThat(history).filteredOn((event) -> event.type().equals("ACTIVITY_RESET"))
			.extracting((event) -> event.attributes().get("name"))
			.containsExactly("dropHeartbeatDetails", "keepHeartbeatDetails");

		Engines.assertReplays(engine, run.runId());
		assertThat(engine.checkReplay(ReplayCheckOptions.defaults()).passed()).as("stored history").isTrue();
		ReplayCheckReport exported = engine.checkReplay(Map.of("replayed.json", history));
		assertThat(exported.failures()).as("exported history").isEmpty();
		assertThat(exported.checked()).isEqualTo(1);
	}

}
