package dev.durable.workflow.message;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.WorkflowUpdateRejectedException;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * An agent run driven by messages: control signals, the status query, the changeGoal
 * update and retried messages.
 */
class AgentRunMessagesTest extends AgentRunFixture {

	// ---- 5.1
	// -------------------------------------------------------------------------------------

	@Test
	void pauseResumeAndCancelRunSignalsAndTheStatusQueryDriveTheLoop() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client()
			.start(AgentRun::run, AgentInput.of("fix the flaky test", 10), StartOptions.withId("agent-5-1"));
		awaitStep(handle, 1);
		assertThat(handle.query(AgentRun::status))
			.isEqualTo(new AgentStatus("fix the flaky test", 1, false, false, List.of()));

		// pause: the handler flips a flag; when the step's minute is over the loop blocks
		// on it
		handle.signal(AgentRun::pause);
		await().until(() -> handle.query(AgentRun::status).paused());
		nextMinute();
		await().until(() -> count(handle, "TIMER_FIRED", null) == 1);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.query(AgentRun::status))
			.isEqualTo(new AgentStatus("fix the flaky test", 1, true, false, List.of()));
		assertThat(count(handle, "ACTIVITY_SCHEDULED", "nextStep")).as("no step while paused").isEqualTo(1);
		assertThat(this.engines.count("timer")).isZero();

		// queries never add history events
		int events = handle.history().size();
		for (int i = 0; i < 3; i++) {
			handle.query(AgentRun::status);
		}
		assertThat(handle.history()).hasSize(events);

		// resume: the loop runs step 2
		handle.signal(AgentRun::resume);
		awaitStep(handle, 2);
		assertThat(handle.query(AgentRun::status).paused()).isFalse();

		// cancelRun: cuts the step's minute short, the loop ends and the run returns its
		// summary
		handle.signal(AgentRun::cancelRun);
		assertThat(handle.result(Duration.ofSeconds(10)))
			.isEqualTo("goal 'fix the flaky test', 2 steps, cancelled, notes []");
		assertThat(handle.query(AgentRun::status).cancelled()).isTrue();
		List<HistoryEvent> history = handle.history();
		assertThat(events(history, "SIGNAL_RECEIVED", null)).extracting((e) -> e.attributes().get("name"))
			.containsExactly("pause", "resume", "cancelRun");
		assertThat(history).extracting(HistoryEvent::type)
			.containsSubsequence("SIGNAL_RECEIVED", "TIMER_CANCELED", "WORKFLOW_COMPLETED");
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.COMPLETED);
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- 5.2
	// -------------------------------------------------------------------------------------

	@Test
	void aPausedRunWaitsForItsResumeWhileNoWorkerRuns() {
		WorkflowEngine first = worker();
		WorkflowHandle<String> handle = first.client()
			.start(AgentRun::run, AgentInput.of("migrate the build", 2), StartOptions.withId("agent-5-2"));
		awaitStep(handle, 1);
		handle.signal(AgentRun::pause);
		await().until(() -> handle.query(AgentRun::status).paused());
		nextMinute();
		// the loop now blocks on "not paused"
		await().until(() -> count(handle, "TIMER_FIRED", null) == 1);

		// every worker disappears: nothing polls for this run and no process holds its
		// state
		first.shutdown();
		assertThat(this.engines.jdbc()
			.queryForObject(
					"SELECT count(*) FROM " + this.engines.schema + ".workflow_run WHERE owner_node IS NOT NULL",
					Integer.class))
			.isZero();

		// two days later resume arrives, through a node that runs no worker: it is stored
		this.engines.clock.advance(Duration.ofDays(2));
		WorkflowEngine api = clientOnly();
		WorkflowHandle<String> remote = api.client().handle("agent-5-2", String.class);
		List<HistoryEvent> before = remote.history();
		remote.signal(AgentRun::resume);
		assertThat(this.engines.count("inbox")).as("stored, waiting for a worker").isEqualTo(1);
		assertThat(remote.history()).as("not yet seen by the workflow").isEqualTo(before);
		assertThat(remote.query(AgentRun::status))
			.isEqualTo(new AgentStatus("migrate the build", 1, true, false, List.of()));
		assertThat(remote.describe().status()).isEqualTo(WorkflowStatus.RUNNING);

		// a worker starts later: it replays history to step 1, sees the resume, runs step
		// 2
		WorkflowEngine second = worker();
		awaitStep(remote, 2);
		nextMinute();
		assertThat(remote.result(Duration.ofSeconds(10))).isEqualTo("goal 'migrate the build', 2 steps, notes []");
		assertThat(this.engines.count("inbox")).isZero();

		// the resume that waited: recorded when the new worker took it, two days after
		// the pause
		List<HistoryEvent> history = remote.history();
		HistoryEvent pause = events(history, "SIGNAL_RECEIVED", "pause").get(0);
		List<HistoryEvent> resumes = events(history, "SIGNAL_RECEIVED", "resume");
		assertThat(resumes).hasSize(1);
		HistoryEvent resume = resumes.get(0);
		assertThat(Duration.between(pause.time(), resume.time())).isGreaterThanOrEqualTo(Duration.ofDays(2));
		assertThat(history.subList((int) pause.eventId(), (int) resume.eventId() - 1)).as("nothing ran while paused")
			.extracting(HistoryEvent::type)
			.containsExactly("TIMER_FIRED");
		assertThat(history).filteredOn((e) -> e.workflowTask() == resume.workflowTask())
			.extracting(HistoryEvent::type)
			.containsExactly("SIGNAL_RECEIVED", "ACTIVITY_SCHEDULED");
		assertThat(events(history, "ACTIVITY_SCHEDULED", "nextStep")).hasSize(2);
		Engines.assertReplays(second, remote.runId());
	}

	// ---- 5.3
	// -------------------------------------------------------------------------------------

	@Test
	void changeGoalIsAnUpdateWhoseValidatorRejectsBlankGoalsWithoutAnEvent() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client()
			.start(AgentRun::run, AgentInput.of("write the docs", 10), StartOptions.withId("agent-5-3"));
		awaitStep(handle, 1);

		// rejected: the caller gets the validator's failure, the workflow has no trace of
		// it
		List<HistoryEvent> before = handle.history();
		assertThatThrownBy(() -> handle.update(AgentRun::changeGoal, new ChangeGoal("   ", "cmd-9f20")))
			.isInstanceOf(WorkflowUpdateRejectedException.class)
			.hasMessageContaining("goal must not be empty")
			.cause()
			.hasMessageContaining("goal must not be empty");
		assertThatThrownBy(() -> handle.startUpdate(AgentRun::changeGoal, new ChangeGoal("", "cmd-9f21"),
				UpdateOptions.withId("reject-me")))
			.isInstanceOf(WorkflowUpdateRejectedException.class);
		assertThat(handle.history()).isEqualTo(before);
		// the rejection is still kept for the caller, by update id
		assertThatThrownBy(() -> handle.updateHandle("reject-me", String.class).result())
			.isInstanceOf(WorkflowUpdateRejectedException.class)
			.hasMessageContaining("goal must not be empty");
		assertThat(handle.query(AgentRun::status).goal()).isEqualTo("write the docs");

		// accepted: recorded, run (with its activity), and the caller gets the handler's
		// value
		assertThat(handle.update(AgentRun::changeGoal, new ChangeGoal("write the tests first", "cmd-9f1e")))
			.isEqualTo("write the tests first");
		AgentStatus status = handle.query(AgentRun::status);
		assertThat(status.goal()).isEqualTo("write the tests first");
		assertThat(status.injected()).containsExactly("goal changed from 'write the docs' to 'write the tests first'");
		List<HistoryEvent> history = handle.history();
		assertThat(history.subList(before.size(), history.size())).extracting(HistoryEvent::type)
			.containsExactly("UPDATE_ACCEPTED", "ACTIVITY_SCHEDULED", "ACTIVITY_COMPLETED", "UPDATE_COMPLETED");
		assertThat(payloadField(accepted(history, "write the tests first"), "commandId")).isEqualTo("cmd-9f1e");

		// the next step works towards the new goal
		nextMinute();
		awaitStep(handle, 2);
		assertThat(this.tools.steps).containsExactly("step 1 towards 'write the docs'",
				"step 2 towards 'write the tests first'");
		handle.signal(AgentRun::cancelRun);
		assertThat(handle.result(Duration.ofSeconds(10)))
			.startsWith("goal 'write the tests first', 2 steps, cancelled");
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- 5.4
	// -------------------------------------------------------------------------------------

	@Test
	void aRetriedInjectContextIsDeduplicatedByCommandIdInWorkflowState() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client()
			.start(AgentRun::run, AgentInput.of("answer the ticket", 10), StartOptions.withId("agent-5-4"));
		awaitStep(handle, 1);

		// the connection broke after the signal was recorded: the client's retry loop
		// sends it again
		InjectContext note = new InjectContext("the customer is on the EU cluster", "cmd-7c01");
		handle.signal(AgentRun::injectContext, note);
		handle.signal(AgentRun::injectContext, note);
		await().until(() -> injected(handle, "cmd-7c01") == 2);
		assertThat(handle.query(AgentRun::status).injected()).containsExactly("the customer is on the EU cluster");

		// with the engine's idempotency key the retried send is a no-op: one event
		InjectContext keyed = new InjectContext("the ticket is a duplicate of #42", "cmd-7c02");
		handle.signal(AgentRun::injectContext, keyed, "send-7c02");
		handle.signal(AgentRun::injectContext, keyed, "send-7c02");
		// a later signal: inbox items are taken in order, so once it is in history the
		// keyed ones are too
		handle.signal(AgentRun::injectContext, new InjectContext("marker", "cmd-7c03"));
		await().until(() -> injected(handle, "cmd-7c03") == 1);
		assertThat(injected(handle, "cmd-7c02")).isEqualTo(1);
		assertThat(handle.query(AgentRun::status).injected()).containsExactly("the customer is on the EU cluster",
				"the ticket is a duplicate of #42", "marker");

		// the same shape for changeGoal: the update completed, the response was lost, a
		// new request
		// with the same command id is answered from workflow state and adds no second
		// note
		ChangeGoal change = new ChangeGoal("reply in German", "cmd-7c04");
		assertThat(handle.update(AgentRun::changeGoal, change)).isEqualTo("reply in German");
		assertThat(handle.update(AgentRun::changeGoal, change)).isEqualTo("reply in German");
		assertThat(events(handle.history(), "UPDATE_ACCEPTED", "changeGoal")).hasSize(2);
		assertThat(events(handle.history(), "ACTIVITY_SCHEDULED", "rewriteContext")).hasSize(1);
		// and a retry with the same update id is answered by the engine from the stored
		// outcome
		ChangeGoal other = new ChangeGoal("reply in French", "cmd-7c05");
		UpdateOptions sameId = UpdateOptions.withId("update-7c05").waitFor(UpdateStage.COMPLETED);
		assertThat(handle.startUpdate(AgentRun::changeGoal, other, sameId).result()).isEqualTo("reply in French");
		assertThat(handle.startUpdate(AgentRun::changeGoal, other, sameId).result()).isEqualTo("reply in French");
		assertThat(events(handle.history(), "UPDATE_ACCEPTED", "changeGoal")).hasSize(3);
		assertThat(handle.query(AgentRun::status).injected()).containsExactly("the customer is on the EU cluster",
				"the ticket is a duplicate of #42", "marker",
				"goal changed from 'answer the ticket' to 'reply in German'",
				"goal changed from 'reply in German' to 'reply in French'");

		handle.signal(AgentRun::cancelRun);
		assertThat(handle.result(Duration.ofSeconds(10))).startsWith("goal 'reply in French', 1 steps, cancelled");
		Engines.assertReplays(engine, handle.runId());
	}

}
