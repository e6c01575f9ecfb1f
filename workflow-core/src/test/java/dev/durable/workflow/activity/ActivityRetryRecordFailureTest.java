package dev.durable.workflow.activity;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.FailingStatements;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An inline activity's failed attempt whose retry cannot be recorded because the database
 * is briefly unreachable (found by the chaos harness): the engine records it again once
 * the database answers, and the activity retries on the node that still owns the run,
 * instead of waiting for that node to die.
 */
class ActivityRetryRecordFailureTest {

	static final List<Integer> ATTEMPTS = new CopyOnWriteArrayList<>();

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
		ATTEMPTS.clear();
	}

	@Activity
	public static class Flaky {

		@ActivityMethod(maxAttempts = 3, initialInterval = "PT10S")
		public String call(String input) {
			int attempt = ActivityContext.current().info().attempt();
			ATTEMPTS.add(attempt);
			if (attempt == 1) {
				throw new IllegalStateException("first attempt fails");
			}
			return input + " on attempt " + attempt;
		}

	}

	@Workflow("flaky-once")
	public static class FlakyWorkflow {

		private final Flaky flaky;

		public FlakyWorkflow(Flaky flaky) {
			this.flaky = flaky;
		}

		@WorkflowRun
		public String run(String input) {
			return this.flaky.call(input);
		}

	}

	@Test
	void aRetryTheDatabaseRefusedIsRecordedOnceItAnswers() {
		// the statement that records a failed attempt and its retry time (see
		// ActivityRepository)
		FailingStatements database = new FailingStatements(TestDatabase.dataSource(),
				"last_failure = EXCLUDED.last_failure");
		database.failNext(3);
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.dataSource(database.dataSource())
			.register(FlakyWorkflow.class)
			.registerActivities(new Flaky()));
		WorkflowHandle<String> handle = engine.client().start(FlakyWorkflow::run, "x", StartOptions.withId("flaky-1"));

		// recorded after the database refused it three times: attempt 2 waits for its
		// retry time
		await().atMost(Duration.ofSeconds(20))
			.until(() -> !handle.describe().pendingActivities().isEmpty()
					&& handle.describe().pendingActivities().get(0).attempt() == 2);
		assertThat(database.failed()).isEqualTo(3);
		assertThat(handle.describe().pendingActivities().get(0).lastFailure()).contains("first attempt fails");

		this.engines.clock.advance(Duration.ofSeconds(10));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("x on attempt 2");
		assertThat(ATTEMPTS).containsExactly(1, 2);
		Engines.assertReplays(engine, handle.describe().runId());
	}

}
