package dev.durable.workflow.internal.taskqueue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.NodeRepository;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The invariants of task-queue attempts, each checked against the statement that keeps
 * it: claims are fenced by the claiming node's liveness and incarnation, outcomes by the
 * attempt's token, and an outcome enters the inbox together with the run's pending-input
 * flag.
 */
class TaskQueueFencingTest {

	private final Engines engines = new Engines();

	private ActivityClaims claims;

	private ActivityOutcomes outcomes;

	private NodeRepository nodes;

	private UUID runId;

	@Activity
	public interface Lonely {

		@ActivityMethod(taskQueue = "fenced")
		String work(String input);

	}

	@Workflow("fenced")
	public static class FencedWorkflow {

		private final Lonely lonely;

		public FencedWorkflow(Lonely lonely) {
			this.lonely = lonely;
		}

		@WorkflowRun
		public String run(String input) {
			return this.lonely.work(input);
		}

	}

	@BeforeEach
	void scheduleAnActivityNobodyServes() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(FencedWorkflow.class));
		this.runId = engine.client().start(FencedWorkflow::run, "x", StartOptions.withId("fenced-1")).runId();
		await().until(() -> this.engines.count("activity") == 1);
		this.claims = new ActivityClaims(this.engines.jdbc(), this.engines.schema, Duration.ofSeconds(30));
		this.outcomes = new ActivityOutcomes(this.engines.jdbc(), this.engines.schema);
		this.nodes = new NodeRepository(this.engines.jdbc(), this.engines.schema);
	}

	@AfterEach
	void close() {
		this.engines.close();
	}

	private List<ClaimedActivity> claimAs(UUID node, long incarnation) {
		return this.claims.claim("default", List.of("fenced"), List.of("work"), node, incarnation,
				this.engines.clock.instant(), 10);
	}

	private UUID liveNode() {
		UUID node = UUID.randomUUID();
		this.nodes.register(node, "default", "test", null, Set.of(), Set.of());
		return node;
	}

	@Test
	void aLiveNodeClaimsOnceAndNoOtherNodeClaimsTheSameAttempt() {
		UUID first = liveNode();
		UUID second = liveNode();
		List<ClaimedActivity> claimed = claimAs(first, 1);
		assertThat(claimed).hasSize(1);
		assertThat(claimed.get(0).workflowId()).isEqualTo("fenced-1");
		assertThat(claimAs(second, 1)).isEmpty();
	}

	@Test
	void aNodeWithoutALiveRegistrationClaimsNothing() {
		UUID stale = liveNode();
		// an old incarnation: the node was declared dead and registered anew
		assertThat(claimAs(stale, 0)).isEmpty();
		assertThat(claimAs(UUID.randomUUID(), 1)).isEmpty();
		this.engines.jdbc()
			.update("UPDATE " + this.engines.schema
					+ ".node SET last_heartbeat = now() - interval '1 hour' WHERE node_id = ?", stale);
		assertThat(claimAs(stale, 1)).isEmpty();
	}

	@Test
	void anOutcomeWithAnotherAttemptsTokenChangesNothing() {
		ClaimedActivity claimed = claimAs(liveNode(), 1).get(0);
		ActivityOutcomes.Delivered wrong = this.outcomes.deliver(this.runId, claimed.seq(), UUID.randomUUID(),
				InboxKind.ACTIVITY_COMPLETED, "\"forged\"".getBytes());
		assertThat(wrong.applied()).isFalse();
		assertThat(this.outcomes.heartbeat(this.runId, claimed.seq(), UUID.randomUUID(), null, Instant.now()))
			.isFalse();
		assertThat(this.outcomes.retry(this.runId, claimed.seq(), UUID.randomUUID(), claimed.attempt(), Instant.now(),
				null, null))
			.isFalse();
		assertThat(this.engines.count("inbox")).isZero();
		assertThat(this.engines.count("activity")).isEqualTo(1);
	}

	@Test
	void anOutcomeEntersTheInboxWithThePendingInputFlagAndOnlyOnce() {
		ClaimedActivity claimed = claimAs(liveNode(), 1).get(0);
		long inboxSeq = this.engines.jdbc()
			.queryForObject("SELECT inbox_seq FROM " + this.engines.schema + ".workflow_run", Long.class);
		ActivityOutcomes.Delivered first = this.outcomes.deliver(this.runId, claimed.seq(), claimed.token(),
				InboxKind.ACTIVITY_COMPLETED, "\"done\"".getBytes());
		assertThat(first.applied()).isTrue();
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT inbox_seq FROM " + this.engines.schema + ".workflow_run", Long.class))
			.isGreaterThan(inboxSeq);
		ActivityOutcomes.Delivered second = this.outcomes.deliver(this.runId, claimed.seq(), claimed.token(),
				InboxKind.ACTIVITY_COMPLETED, "\"again\"".getBytes());
		assertThat(second.applied()).isFalse();
		// the run's owner takes the one outcome in its next task
		await().until(() -> "COMPLETED".equals(this.engines.jdbc()
			.queryForObject("SELECT status FROM " + this.engines.schema + ".workflow_run", String.class)));
		assertThat(this.engines.count("inbox")).isZero();
	}

	@Test
	void aRetryPutsTheAttemptBackAndItsOldTokenNoLongerCounts() {
		ClaimedActivity claimed = claimAs(liveNode(), 1).get(0);
		assertThat(this.outcomes.retry(this.runId, claimed.seq(), claimed.token(), claimed.attempt(),
				this.engines.clock.instant(), null, null))
			.isTrue();
		ClaimedActivity again = claimAs(liveNode(), 1).get(0);
		assertThat(again.attempt()).isEqualTo(2);
		assertThat(again.token()).isNotEqualTo(claimed.token());
		assertThat(this.outcomes
			.deliver(this.runId, claimed.seq(), claimed.token(), InboxKind.ACTIVITY_COMPLETED, "\"late\"".getBytes())
			.applied()).isFalse();
	}

}
