package dev.durable.workflow.visibility;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowExecution;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.internal.runtime.WorkflowTaskFailedException;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Memo and search attributes: written at start, upserted from workflow code, carried to
 * the next run or not.
 */
class VisibilityTest extends VisibilityFixture {

	@Test
	void startWritesMemoAndTypedSearchAttributes() {
		WorkflowClient client = engine().client();
		Instant due = Instant.parse("2026-03-01T10:15:30.123456789Z");
		Map<String, Object> attributes = new HashMap<>();
		attributes.put("customer", "c-1");
		attributes.put("amount", 42);
		attributes.put("weight", 1.5);
		attributes.put("vip", true);
		attributes.put("due", due);
		attributes.put("shipBy", OffsetDateTime.of(2026, 3, 2, 12, 0, 0, 0, ZoneOffset.ofHours(2)));
		attributes.put("tags", List.of("a", "b"));
		attributes.put("ignored", null);
		WorkflowHandle<String> handle = client.start(Waiter::run, "x",
				StartOptions.builder()
					.workflowId("typed")
					.searchAttributes(attributes)
					.memo(Map.of("note", new Note("ada", 1), "text", "hello"))
					.build());

		WorkflowDescription description = handle.describe();
		assertThat(description.searchAttributes()).containsEntry("customer", "c-1")
			.containsEntry("amount", 42L)
			.containsEntry("weight", 1.5)
			.containsEntry("vip", true)
			.containsEntry("due", Instant.parse("2026-03-01T10:15:30.123456Z"))
			.containsEntry("shipBy", Instant.parse("2026-03-02T10:00:00Z"))
			.containsEntry("tags", List.of("a", "b"))
			.doesNotContainKey("ignored");
		assertThat(description.memo()).containsEntry("text", "hello")
			.containsEntry("note", Map.of("by", "ada", "priority", 1L));
		String stored = this.engines.jdbc()
			.queryForObject("SELECT search_attributes ->> 'due' FROM " + this.engines.schema + ".visibility",
					String.class);
		assertThat(stored).as("fixed-width UTC text, so ranges compare as times")
			.isEqualTo("2026-03-01T10:15:30.123456Z");

		WorkflowExecution listed = client.list(WorkflowFilter.all().eq("customer", "c-1"), 10, null)
			.executions()
			.get(0);
		assertThat(listed.runId()).isEqualTo(handle.runId());
		assertThat(listed.workflowType()).isEqualTo("waiter");
		assertThat(listed.status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(listed.searchAttributes()).isEqualTo(description.searchAttributes());
		assertThat(listed.memo()).isEqualTo(description.memo());
		assertThat(ids(client, WorkflowFilter.all().eq("tags", "b"))).as("a keyword list contains")
			.containsExactly("typed");
		assertThat(ids(client, WorkflowFilter.all().eq("amount", 42L))).containsExactly("typed");
		assertThat(ids(client, WorkflowFilter.all().eq("vip", true))).containsExactly("typed");
		assertThat(ids(client, WorkflowFilter.all().eq("due", due))).as("the same time, truncated the same way")
			.containsExactly("typed");
	}

	@Test
	void upsertsAreRecordedReplayedAndCommittedWithTheirTask() {
		WorkflowEngine engine = engine();
		WorkflowClient client = engine.client();
		WorkflowHandle<String> handle = client.start(OrderWorkflow::run, "o",
				StartOptions.builder()
					.workflowId("order-1")
					.searchAttributes(Map.of("customer", "c-7", "region", "eu"))
					.memo(Map.of("source", "test"))
					.build());
		await().until(() -> "received".equals(handle.describe().searchAttributes().get("stage")));
		WorkflowDescription first = handle.describe();
		assertThat(first.searchAttributes())
			.isEqualTo(Map.of("customer", "c-7", "region", "eu", "stage", "received", "amount", 10L));
		assertThat(first.memo()).isEqualTo(Map.of("source", "test", "note", "first", "steps", List.of(1L, 2L)));
		assertThat(ids(client, WorkflowFilter.ofType("order").eq("customer", "c-7"))).containsExactly("order-1");

		Instant paidAt = this.engines.clock.instant();
		handle.signal("next", "go");
		await().until(() -> "paid".equals(handle.describe().searchAttributes().get("stage")));
		WorkflowDescription second = handle.describe();
		assertThat(second.searchAttributes()).isEqualTo(Map.of("region", "eu", "stage", "paid", "amount", 25.5, "tags",
				List.of("rush", "gift"), "paidAt", paidAt));
		assertThat(second.memo())
			.isEqualTo(Map.of("source", "test", "steps", List.of(1L, 2L), "by", Map.of("by", "ada", "priority", 2L)));
		assertThat(handle.query("attributes", null, Map.class)).containsEntry("stage", "paid")
			.containsEntry("amount", 25.5)
			.doesNotContainKey("customer");
		assertThat(ids(client, WorkflowFilter.all().eq("customer", "c-7"))).as("removed by a null value").isEmpty();
		assertThat(ids(client, WorkflowFilter.all().gt("amount", 20))).containsExactly("order-1");
		assertThat(ids(client, WorkflowFilter.all().eq("tags", "gift"))).containsExactly("order-1");
		assertThat(ids(client, WorkflowFilter.all().ge("paidAt", paidAt).lt("paidAt", paidAt.plusSeconds(1))))
			.containsExactly("order-1");

		handle.signal("done", "go");
		assertThat(handle.result(Duration.ofSeconds(10))).contains("stage=shipped");
		Engines.assertReplays(engine, handle.runId());
		assertThat(handle.history()).extracting("type")
			.contains("WORKFLOW_ATTRIBUTES", "UPSERT_SEARCH_ATTRIBUTES", "UPSERT_MEMO");
		assertThat(ids(client, WorkflowFilter.all().status(WorkflowStatus.COMPLETED).eq("stage", "shipped")))
			.containsExactly("order-1");
		assertThat(client.count(WorkflowFilter.all().eq("stage", "paid"))).isZero();
	}

	@Test
	void aChangedUpsertIsNonDeterministic() {
		WorkflowEngine engine = engine();
		stage = "one";
		WorkflowHandle<String> handle = engine.client().start(Flip::run, "x", StartOptions.withId("flip"));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("ok");
		Engines.assertReplays(engine, handle.runId());
		stage = "two";
		try {
			assertThatThrownBy(() -> EngineInternals.node(engine).replay(handle.runId()))
				.isInstanceOf(WorkflowTaskFailedException.class)
				.hasCauseInstanceOf(NonDeterministicWorkflowException.class)
				.hasMessageContaining("UPSERT_SEARCH_ATTRIBUTES")
				.hasMessageContaining("two");
		}
		finally {
			stage = "one";
		}
	}

	@Test
	void continueAsNewCarriesCurrentValuesAndARetryStartsWithTheStartValues() {
		WorkflowClient client = engine().client();
		WorkflowHandle<String> chain = client.start(Chain::run, 0,
				StartOptions.builder()
					.workflowId("chain")
					.searchAttributes(Map.of("batch", "b1"))
					.memo(Map.of("m", 1))
					.build());
		assertThat(chain.result(Duration.ofSeconds(10))).isEqualTo("{batch=b1, n=1}");
		List<WorkflowExecution> runs = client.list(WorkflowFilter.all().eq("batch", "b1"), 10, null).executions();
		assertThat(runs).extracting(WorkflowExecution::status)
			.containsExactly(WorkflowStatus.COMPLETED, WorkflowStatus.CONTINUED_AS_NEW,
					WorkflowStatus.CONTINUED_AS_NEW);
		assertThat(runs).extracting((e) -> e.searchAttributes().get("n")).containsExactly(2L, 1L, 0L);
		assertThat(runs).extracting((e) -> e.memo().get("m")).containsOnly(1L);

		ATTEMPTS.set(0);
		WorkflowHandle<String> retried = client.start(RetriedUpsert::run, "x",
				StartOptions.builder()
					.workflowId("retried")
					.searchAttributes(Map.of("batch", "b2"))
					.retryPolicy(
							RetryPolicy.builder().initialInterval(Duration.ofSeconds(5)).maximumAttempts(3).build())
					.build());
		await().until(() -> client.count(WorkflowFilter.all().eq("batch", "b2")) == 2);
		this.engines.clock.advance(Duration.ofSeconds(5));
		assertThat(retried.result(Duration.ofSeconds(10))).as("the retry started without the failed run's upsert")
			.isEqualTo("{batch=b2}");
		assertThat(client.list(WorkflowFilter.all().eq("batch", "b2"), 10, null).executions())
			.extracting(WorkflowExecution::status, (e) -> e.searchAttributes().get("attempt"))
			.containsExactly(org.assertj.core.groups.Tuple.tuple(WorkflowStatus.COMPLETED, 2L),
					org.assertj.core.groups.Tuple.tuple(WorkflowStatus.FAILED, 1L));
	}

}
