package dev.durable.workflow;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowExecution;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowPage;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.internal.runtime.WorkflowTaskFailedException;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Memo, search attributes, their upserts from workflow code, and listing and counting runs. */
class VisibilityTest {

	static final AtomicInteger ATTEMPTS = new AtomicInteger();

	static volatile String stage = "one";

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** A note kept in the memo. */
	public record Note(String by, int priority) {
	}

	/** A memo value Jackson cannot write. */
	public static class Unwritable {

		public String getValue() {
			throw new IllegalStateException("not writable");
		}

	}

	/** Upserts over three tasks, with removals, and answers what it sees. */
	@Workflow("order")
	public static class OrderWorkflow {

		@WorkflowRun
		public String run(String input) {
			Workflows.upsertSearchAttributes(Map.of("stage", "received", "amount", 10));
			Workflows.upsertMemo(Map.of("note", "first", "steps", List.of(1, 2)));
			Workflows.receive("next", String.class);
			Map<String, Object> patch = new HashMap<>();
			patch.put("stage", "paid");
			patch.put("amount", 25.5);
			patch.put("tags", List.of("rush", "gift"));
			patch.put("paidAt", Workflows.now());
			patch.put("customer", null);
			Workflows.upsertSearchAttributes(patch);
			Map<String, Object> memo = new HashMap<>();
			memo.put("note", null);
			memo.put("by", new Note("ada", 2));
			Workflows.upsertMemo(memo);
			Workflows.upsertSearchAttributes(Map.of());
			Workflows.receive("done", String.class);
			Workflows.upsertSearchAttributes(Map.of("stage", "shipped"));
			return Workflows.info().searchAttributes().toString();
		}

		@QueryMethod
		public Map<String, Object> attributes() {
			return Workflows.info().searchAttributes();
		}

	}

	/** Waits until stopped. */
	@Workflow("waiter")
	public static class Waiter {

		@WorkflowRun
		public String run(String input) {
			return Workflows.receive("stop", String.class);
		}

	}

	/** Another type. */
	@Workflow("other-waiter")
	public static class OtherWaiter {

		@WorkflowRun
		public String run(String input) {
			return Workflows.receive("stop", String.class);
		}

	}

	/** Returns at once. */
	@Workflow("quick")
	public static class Quick {

		@WorkflowRun
		public String run(String input) {
			return input;
		}

	}

	/** Upserts the key it is given (for bad input). */
	@Workflow("bad-upsert")
	public static class BadUpsert {

		@WorkflowRun
		public String run(String mode) {
			Workflows.upsertSearchAttributes(Map.of("good", "yes"));
			Workflows.receive("go", String.class);
			if (mode.equals("key")) {
				Workflows.upsertSearchAttributes(Map.of("bad key!", "x"));
			}
			else {
				Workflows.upsertSearchAttributes(Map.of("id", UUID.randomUUID()));
			}
			return "unreachable";
		}

	}

	/** Upserts what the static field says: changing it between run and replay is non-deterministic. */
	@Workflow("flip")
	public static class Flip {

		@WorkflowRun
		public String run(String input) {
			Workflows.upsertSearchAttributes(Map.of("stage", stage));
			return "ok";
		}

	}

	/** Continues as new twice; each run records n and reports what it started with. */
	@Workflow("chain")
	public static class Chain {

		@WorkflowRun
		public String run(Integer n) {
			Map<String, Object> before = Workflows.info().searchAttributes();
			Workflows.upsertSearchAttributes(Map.of("n", n));
			if (n < 2) {
				Workflows.continueAsNew(n + 1);
			}
			return before.toString();
		}

	}

	/** Fails its first attempt after an upsert. */
	@Workflow("retried-upsert")
	public static class RetriedUpsert {

		@WorkflowRun
		public String run(String input) {
			Map<String, Object> before = Workflows.info().searchAttributes();
			int attempt = Workflows.sideEffect(Integer.class, ATTEMPTS::incrementAndGet);
			Workflows.upsertSearchAttributes(Map.of("attempt", attempt));
			if (attempt < 2) {
				throw ApplicationFailure.newFailure("first attempt fails", "Flaky");
			}
			return before.toString();
		}

	}

	private WorkflowEngine engine() {
		return this.engines.start(this.engines.builder()
			.register(OrderWorkflow.class)
			.register(Waiter.class)
			.register(OtherWaiter.class)
			.register(Quick.class)
			.register(BadUpsert.class)
			.register(Flip.class)
			.register(Chain.class)
			.register(RetriedUpsert.class));
	}

	private static List<String> ids(WorkflowPage page) {
		return page.executions().stream().map(WorkflowExecution::workflowId).toList();
	}

	private static List<String> ids(WorkflowClient client, WorkflowFilter filter) {
		return ids(client.list(filter, 1000, null));
	}

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
		WorkflowHandle<String> handle = client.start(Waiter::run, "x", StartOptions.builder()
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
			.queryForObject("SELECT search_attributes ->> 'due' FROM " + this.engines.schema + ".visibility", String.class);
		assertThat(stored).as("fixed-width UTC text, so ranges compare as times").isEqualTo("2026-03-01T10:15:30.123456Z");

		WorkflowExecution listed = client.list(WorkflowFilter.all().eq("customer", "c-1"), 10, null)
			.executions()
			.get(0);
		assertThat(listed.runId()).isEqualTo(handle.runId());
		assertThat(listed.workflowType()).isEqualTo("waiter");
		assertThat(listed.status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(listed.searchAttributes()).isEqualTo(description.searchAttributes());
		assertThat(listed.memo()).isEqualTo(description.memo());
		assertThat(ids(client, WorkflowFilter.all().eq("tags", "b"))).as("a keyword list contains").containsExactly("typed");
		assertThat(ids(client, WorkflowFilter.all().eq("amount", 42L))).containsExactly("typed");
		assertThat(ids(client, WorkflowFilter.all().eq("vip", true))).containsExactly("typed");
		assertThat(ids(client, WorkflowFilter.all().eq("due", due))).as("the same time, truncated the same way")
			.containsExactly("typed");
	}

	@Test
	void upsertsAreRecordedReplayedAndCommittedWithTheirTask() {
		WorkflowEngine engine = engine();
		WorkflowClient client = engine.client();
		WorkflowHandle<String> handle = client.start(OrderWorkflow::run, "o", StartOptions.builder()
			.workflowId("order-1")
			.searchAttributes(Map.of("customer", "c-7", "region", "eu"))
			.memo(Map.of("source", "test"))
			.build());
		await().until(() -> "received".equals(handle.describe().searchAttributes().get("stage")));
		WorkflowDescription first = handle.describe();
		assertThat(first.searchAttributes()).isEqualTo(Map.of("customer", "c-7", "region", "eu", "stage", "received",
				"amount", 10L));
		assertThat(first.memo()).isEqualTo(Map.of("source", "test", "note", "first", "steps", List.of(1L, 2L)));
		assertThat(ids(client, WorkflowFilter.ofType("order").eq("customer", "c-7"))).containsExactly("order-1");

		Instant paidAt = this.engines.clock.instant();
		handle.signal("next", "go");
		await().until(() -> "paid".equals(handle.describe().searchAttributes().get("stage")));
		WorkflowDescription second = handle.describe();
		assertThat(second.searchAttributes()).isEqualTo(Map.of("region", "eu", "stage", "paid", "amount", 25.5,
				"tags", List.of("rush", "gift"), "paidAt", paidAt));
		assertThat(second.memo()).isEqualTo(Map.of("source", "test", "steps", List.of(1L, 2L), "by",
				Map.of("by", "ada", "priority", 2L)));
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
			assertThatThrownBy(() -> engine.internal().replay(handle.runId()))
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
	void filtersByTypeStatusTimesIdPrefixAndAttributes() {
		WorkflowEngine engine = engine();
		WorkflowClient client = engine.client();
		Instant t0 = this.engines.clock.instant();
		List<WorkflowHandle<String>> handles = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			StartOptions options = StartOptions.builder()
				.workflowId((i == 4) ? "a_" + i : "a" + i)
				.searchAttributes(Map.of("n", i, "score", i * 1.5, "name", "name-" + i, "at",
						t0.plus(Duration.ofHours(i)), "parity", (i % 2 == 0) ? "even" : "odd"))
				.build();
			handles.add((i < 3) ? client.start(Waiter::run, "x", options) : client.start(OtherWaiter::run, "x", options));
			this.engines.clock.advance(Duration.ofSeconds(10));
		}
		handles.get(1).signal("stop", "done");
		handles.get(4).signal("stop", "done");
		assertThat(handles.get(1).result(Duration.ofSeconds(10))).isEqualTo("done");
		assertThat(handles.get(4).result(Duration.ofSeconds(10))).isEqualTo("done");
		handles.get(5).terminate("enough");

		assertThat(ids(client, WorkflowFilter.all())).as("newest first").containsExactly("a5", "a_4", "a3", "a2", "a1", "a0");
		assertThat(ids(client, WorkflowFilter.ofType("waiter"))).containsExactly("a2", "a1", "a0");
		assertThat(ids(client, WorkflowFilter.all().status(WorkflowStatus.RUNNING))).containsExactly("a3", "a2", "a0");
		assertThat(ids(client, WorkflowFilter.all().status(WorkflowStatus.COMPLETED, WorkflowStatus.TERMINATED)))
			.containsExactly("a5", "a_4", "a1");
		assertThat(ids(client, WorkflowFilter.all().status(WorkflowStatus.TERMINATED))).containsExactly("a5");
		assertThat(ids(client, WorkflowFilter.all().startedBetween(t0.plusSeconds(10), t0.plusSeconds(30))))
			.containsExactly("a2", "a1");
		assertThat(ids(client, WorkflowFilter.all().startedBetween(t0.plusSeconds(40), null))).containsExactly("a5", "a_4");
		assertThat(ids(client, WorkflowFilter.all().closedBetween(t0, null))).containsExactly("a5", "a_4", "a1");
		assertThat(ids(client, WorkflowFilter.all().closedBetween(null, t0))).isEmpty();
		assertThat(ids(client, WorkflowFilter.all().workflowIdPrefix("a_"))).as("_ is no wildcard").containsExactly("a_4");
		assertThat(ids(client, WorkflowFilter.all().workflowIdPrefix("%"))).as("% is no wildcard").isEmpty();
		assertThat(ids(client, WorkflowFilter.all().gt("n", 3))).containsExactly("a5", "a_4");
		assertThat(ids(client, WorkflowFilter.all().ge("n", 3).le("n", 4L))).containsExactly("a_4", "a3");
		assertThat(ids(client, WorkflowFilter.all().lt("score", 3.0))).containsExactly("a1", "a0");
		assertThat(ids(client, WorkflowFilter.all().gt("score", 2))).as("numbers compare across Long and Double")
			.containsExactly("a5", "a_4", "a3", "a2");
		assertThat(ids(client, WorkflowFilter.all().gt("name", 2))).as("a number never matches a string attribute")
			.isEmpty();
		assertThat(ids(client, WorkflowFilter.all().ge("name", "name-4"))).containsExactly("a5", "a_4");
		assertThat(ids(client, WorkflowFilter.all().ge("at", t0.plus(Duration.ofHours(2)))
			.lt("at", t0.plus(Duration.ofHours(4))))).containsExactly("a3", "a2");
		assertThat(ids(client, WorkflowFilter.all().in("n", List.of(0, 5, 99)))).containsExactly("a5", "a0");
		assertThat(ids(client, WorkflowFilter.all().in("n", List.of()))).isEmpty();
		assertThat(ids(client, WorkflowFilter.ofType("other-waiter").eq("parity", "odd").status(WorkflowStatus.RUNNING)))
			.containsExactly("a3");
		assertThat(ids(client, WorkflowFilter.all().eq("missing", "x"))).isEmpty();
		assertThat(client.count(WorkflowFilter.all())).isEqualTo(6);
		assertThat(client.count(WorkflowFilter.all().eq("parity", "even"))).isEqualTo(3);
		assertThat(client.count(WorkflowFilter.ofType("waiter").status(WorkflowStatus.RUNNING))).isEqualTo(2);
		assertThat(client.list(WorkflowFilter.all().status(WorkflowStatus.TERMINATED), 10, null)
			.executions()
			.get(0)
			.closeTime()).isNotNull();
	}

	@Test
	void pagesAreKeysetPagesStableUnderNewStarts() {
		WorkflowClient client = engine().client();
		List<String> started = new ArrayList<>();
		for (int i = 0; i < 25; i++) {
			client.start(Quick::run, "x", StartOptions.builder()
				.workflowId("p" + i)
				.searchAttributes(Map.of("batch", "one"))
				.build());
			started.add(0, "p" + i);
			if (i % 3 == 0) {
				this.engines.clock.advance(Duration.ofSeconds(1)); // some runs share a start time
			}
		}
		WorkflowFilter filter = WorkflowFilter.all().eq("batch", "one");
		WorkflowPage first = client.list(filter, 10, null);
		assertThat(ids(first)).isEqualTo(started.subList(0, 10));
		assertThat(first.nextPageToken()).isNotNull();
		// runs started between pages are newer: they do not shift the pages that follow
		for (int i = 0; i < 5; i++) {
			client.start(Quick::run, "x", StartOptions.builder()
				.workflowId("late" + i)
				.searchAttributes(Map.of("batch", "one"))
				.build());
		}
		WorkflowPage second = client.list(filter, 10, first.nextPageToken());
		WorkflowPage third = client.list(filter, 10, second.nextPageToken());
		assertThat(ids(second)).isEqualTo(started.subList(10, 20));
		assertThat(ids(third)).isEqualTo(started.subList(20, 25));
		assertThat(third.nextPageToken()).as("the last page").isNull();
		Set<UUID> runIds = new HashSet<>();
		for (WorkflowPage page : List.of(first, second, third)) {
			page.executions().forEach((e) -> assertThat(runIds.add(e.runId())).as("no duplicates").isTrue());
		}
		WorkflowPage exact = client.list(WorkflowFilter.all().workflowIdPrefix("p"), 25, null);
		assertThat(exact.executions()).hasSize(25);
		assertThat(exact.nextPageToken()).as("a full last page has no next page").isNull();
		assertThat(client.count(filter)).isEqualTo(30);
	}

	@Test
	void badInputIsRejectedWithClearMessagesAndWritesNothing() {
		WorkflowClient client = engine().client();
		assertThatThrownBy(() -> client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("bad").searchAttributes(Map.of("bad key", "x")).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid search attribute key 'bad key'");
		assertThatThrownBy(() -> client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("bad").searchAttributes(Map.of("k".repeat(65), "x")).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("1-64 letters");
		assertThatThrownBy(() -> client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("bad").searchAttributes(Map.of("id", UUID.randomUUID())).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("'id'")
			.hasMessageContaining("java.util.UUID")
			.hasMessageContaining("use String, Long");
		assertThatThrownBy(() -> client.start(Waiter::run, "x", StartOptions.builder()
			.workflowId("bad")
			.searchAttributes(Map.of("nested", List.of(List.of("a"))))
			.build())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'nested'");
		assertThatThrownBy(() -> client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("bad").searchAttributes(Map.of("nan", Double.NaN)).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("finite");
		assertThatThrownBy(() -> client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("bad").memo(Map.of("no-dashes", "x")).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid memo key 'no-dashes'");
		assertThatThrownBy(() -> client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("bad").memo(Map.of("thing", new Unwritable())).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Memo value of 'thing' cannot be written as JSON");
		assertThat(this.engines.count("workflow_run")).as("nothing written").isZero();
		assertThat(this.engines.count("visibility")).isZero();

		assertThatThrownBy(() -> client.list(WorkflowFilter.all(), 10, "not a token"))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid page token");
		String forged = java.util.Base64.getUrlEncoder().encodeToString("v1:soon:someone".getBytes());
		assertThatThrownBy(() -> client.list(WorkflowFilter.all(), 10, forged))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid page token");
		assertThatThrownBy(() -> client.list(WorkflowFilter.all(), 0, null))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Page size");
		assertThatThrownBy(() -> client.list(WorkflowFilter.all(), 1001, null))
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> client.count(WorkflowFilter.all().eq("id", UUID.randomUUID())))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("java.util.UUID");
		assertThatThrownBy(() -> client.count(WorkflowFilter.all().gt("tags", List.of("a"))))
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> WorkflowFilter.all().eq("k", null)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("needs a value");
	}

	@Test
	void aBadUpsertFailsTheWorkflowTaskAndWritesNothing() {
		WorkflowClient client = engine().client();
		for (String mode : List.of("key", "type")) {
			WorkflowHandle<String> handle = client.start(BadUpsert::run, mode, StartOptions.withId("bad-" + mode));
			await().until(() -> "yes".equals(handle.describe().searchAttributes().get("good")));
			int historyRows = this.engines.count("history");
			handle.signal("go", "now");
			await().until(() -> handle.describe().taskFailure() != null);
			WorkflowDescription stuck = handle.describe();
			assertThat(stuck.status()).isEqualTo(WorkflowStatus.RUNNING);
			assertThat(stuck.taskFailure()).contains("IllegalArgumentException")
				.contains(mode.equals("key") ? "Invalid search attribute key 'bad key!'" : "java.util.UUID");
			assertThat(stuck.searchAttributes()).isEqualTo(Map.of("good", "yes"));
			assertThat(this.engines.count("history")).isEqualTo(historyRows);
			handle.terminate("done");
		}
	}

	@Test
	void injectionInNamesAndValuesFindsNothingAndBreaksNothing() {
		WorkflowClient client = engine().client();
		String injection = "x' OR '1'='1'); DROP TABLE visibility; --";
		WorkflowHandle<String> marked = client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("marked").searchAttributes(Map.of("note", injection)).build());
		client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("plain").searchAttributes(Map.of("note", "plain")).build());

		assertThat(ids(client, WorkflowFilter.all().eq("note", injection))).as("stored and matched verbatim")
			.containsExactly("marked");
		assertThat(ids(client, WorkflowFilter.all().eq("note", "x' OR '1'='1"))).isEmpty();
		assertThat(ids(client, WorkflowFilter.all().in("note", List.of("' OR 1=1 --", "\"}]}')")))).isEmpty();
		assertThat(ids(client, WorkflowFilter.all().lt("note", injection))).as("an ordinary string comparison")
			.containsExactly("plain");
		assertThat(ids(client, WorkflowFilter.ofType("waiter' OR '1'='1"))).isEmpty();
		assertThat(ids(client, WorkflowFilter.all().workflowIdPrefix("' OR '1'='1"))).isEmpty();
		assertThatThrownBy(() -> client.list(WorkflowFilter.all().eq("note' OR '1'='1", "x"), 10, null))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid search attribute key");
		assertThatThrownBy(() -> client.count(WorkflowFilter.all().gt("a'); DROP TABLE visibility; --", 1)))
			.isInstanceOf(IllegalArgumentException.class);
		assertThat(client.count(WorkflowFilter.all())).as("the table is intact").isEqualTo(2);
		assertThat(marked.describe().searchAttributes()).containsEntry("note", injection);
	}

	@Test
	void continueAsNewCarriesCurrentValuesAndARetryStartsWithTheStartValues() {
		WorkflowClient client = engine().client();
		WorkflowHandle<String> chain = client.start(Chain::run, 0,
				StartOptions.builder().workflowId("chain").searchAttributes(Map.of("batch", "b1")).memo(Map.of("m", 1)).build());
		assertThat(chain.result(Duration.ofSeconds(10))).isEqualTo("{batch=b1, n=1}");
		List<WorkflowExecution> runs = client.list(WorkflowFilter.all().eq("batch", "b1"), 10, null).executions();
		assertThat(runs).extracting(WorkflowExecution::status)
			.containsExactly(WorkflowStatus.COMPLETED, WorkflowStatus.CONTINUED_AS_NEW, WorkflowStatus.CONTINUED_AS_NEW);
		assertThat(runs).extracting((e) -> e.searchAttributes().get("n")).containsExactly(2L, 1L, 0L);
		assertThat(runs).extracting((e) -> e.memo().get("m")).containsOnly(1L);

		ATTEMPTS.set(0);
		WorkflowHandle<String> retried = client.start(RetriedUpsert::run, "x", StartOptions.builder()
			.workflowId("retried")
			.searchAttributes(Map.of("batch", "b2"))
			.retryPolicy(RetryPolicy.builder().initialInterval(Duration.ofSeconds(5)).maximumAttempts(3).build())
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
