package dev.durable.workflow.internal.store;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.durable.workflow.client.WorkflowExecution;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowPage;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * List and count over 10,000 visibility rows: the exact statements the repository builds
 * use an index (no sequential scan of the visibility table), and return the right rows,
 * page by page. Rows are generated in SQL: row i starts at BASE + i minutes, has type
 * type-(i % 50), is RUNNING when i % 40 == 3, FAILED when i % 10 == 0, else COMPLETED
 * (closed 30 s after its start), and search attributes customer c-(i % 1000), amount i,
 * region eu/us by parity. 2,000 more rows in another namespace must never show up.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VisibilityQueryPlanTest {

	private static final int ROWS = 10_000;

	private static final Instant BASE = Instant.parse("2026-01-01T00:00:00Z");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Engines engines = new Engines();

	private VisibilityRepository repository;

	private String namespace;

	@BeforeAll
	void insertRows() {
		// starting an engine migrates the schema
		this.namespace = EngineInternals.node(this.engines.start(this.engines.builder())).config().namespace();
		this.repository = new VisibilityRepository(jdbc(), this.engines.schema);
		String insert = "INSERT INTO " + this.engines.schema + ".visibility (run_id, namespace, workflow_id,"
				+ " workflow_type, status, start_time, close_time, memo, search_attributes)"
				+ " SELECT ('00000000-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, ?, 'wf-' || i,"
				+ " 'type-' || (i % 50),"
				+ " CASE WHEN i % 40 = 3 THEN 'RUNNING' WHEN i % 10 = 0 THEN 'FAILED' ELSE 'COMPLETED' END,"
				+ " timestamptz '2026-01-01 00:00:00+00' + i * interval '1 minute'," + " CASE WHEN i % 40 = 3 THEN NULL"
				+ " ELSE timestamptz '2026-01-01 00:00:00+00' + i * interval '1 minute' + interval '30 seconds' END,"
				+ " jsonb_build_object('i', i),"
				+ " jsonb_build_object('customer', 'c-' || (i % 1000), 'amount', i, 'region',"
				+ " CASE WHEN i % 2 = 0 THEN 'eu' ELSE 'us' END)" + " FROM generate_series(?::int, ?::int) AS i";
		jdbc().update(insert, this.namespace, 1, ROWS);
		jdbc().update(insert, "elsewhere", ROWS + 1, ROWS + 2000);
		jdbc().execute("ANALYZE " + this.engines.schema + ".visibility");
	}

	@AfterAll
	void close() {
		this.engines.close();
	}

	private JdbcTemplate jdbc() {
		return this.engines.jdbc();
	}

	private static Instant minute(int i) {
		return BASE.plus(Duration.ofMinutes(i));
	}

	private static UUID runId(int i) {
		return UUID.fromString(String.format("00000000-0000-7000-8000-%012x", i));
	}

	private static String status(int i) {
		return (i % 40 == 3) ? "RUNNING" : (i % 10 == 0) ? "FAILED" : "COMPLETED";
	}

	@Test
	void byType() {
		check(WorkflowFilter.ofType("type-7"), (i) -> i % 50 == 7, true);
	}

	@Test
	void byStatus() {
		check(WorkflowFilter.all().status(WorkflowStatus.RUNNING), (i) -> status(i).equals("RUNNING"), true);
	}

	@Test
	void bySearchAttributeEquality() {
		check(WorkflowFilter.all().eq("customer", "c-7"), (i) -> i % 1000 == 7, true);
	}

	@Test
	void bySearchAttributeIn() {
		check(WorkflowFilter.all().in("customer", List.of("c-7", "c-8", "nobody")),
				(i) -> i % 1000 == 7 || i % 1000 == 8, true);
	}

	@Test
	void byStartTimeRange() {
		check(WorkflowFilter.all().startedBetween(minute(1000), minute(1100)), (i) -> i >= 1000 && i < 1100, true);
	}

	@Test
	void byCloseTimeRange() {
		check(WorkflowFilter.all().closedBetween(minute(2000), minute(2100)),
				(i) -> !status(i).equals("RUNNING") && i >= 2000 && i < 2100, true);
	}

	@Test
	void byWorkflowIdPrefix() {
		check(WorkflowFilter.all().workflowIdPrefix("wf-77"), (i) -> String.valueOf(i).startsWith("77"), true);
	}

	@Test
	void byEverythingAtOnce() {
		WorkflowFilter filter = WorkflowFilter.ofType("type-3")
			.status(WorkflowStatus.COMPLETED, WorkflowStatus.FAILED)
			.eq("region", "us")
			.gt("amount", 5000)
			.startedBetween(minute(1), minute(9000));
		check(filter,
				(i) -> i % 50 == 3 && !status(i).equals("RUNNING") && i % 2 == 1 && i > 5000 && i >= 1 && i < 9000,
				true);
	}

	@Test
	void everyRunNewestFirst() {
		// a count of everything reads everything; only the list must use the index
		check(WorkflowFilter.all(), (i) -> true, false);
	}

	/**
	 * Plans both statements, then reads every page and the count and compares with the
	 * rule.
	 */
	private void check(WorkflowFilter filter, IntPredicate expected, boolean countUsesIndex) {
		List<UUID> want = IntStream.rangeClosed(1, ROWS)
			.map((i) -> ROWS + 1 - i)
			.filter(expected)
			.mapToObj(VisibilityQueryPlanTest::runId)
			.toList();
		assertThat(want).as("the filter selects something").isNotEmpty();

		VisibilityRepository.Query list = this.repository.listQuery(this.namespace, filter, null, 51);
		assertUsesIndex(list);
		VisibilityRepository.Cursor cursor = new VisibilityRepository.Cursor(minute(5000), runId(5000));
		assertUsesIndex(this.repository.listQuery(this.namespace, filter, cursor, 51));
		if (countUsesIndex) {
			assertUsesIndex(this.repository.countQuery(this.namespace, filter));
		}

		List<UUID> got = new ArrayList<>();
		String token = null;
		do {
			WorkflowPage page = this.repository.list(this.namespace, filter, 500, token);
			page.executions().forEach((e) -> got.add(e.runId()));
			token = page.nextPageToken();
		}
		while (token != null);
		assertThat(got).isEqualTo(want);
		assertThat(this.repository.count(this.namespace, filter)).isEqualTo(want.size());
		WorkflowExecution first = this.repository.list(this.namespace, filter, 1, null).executions().get(0);
		int i = Integer.parseInt(first.workflowId().substring(3));
		assertThat(first.startTime()).isEqualTo(minute(i));
		assertThat(first.status().name()).isEqualTo(status(i));
		assertThat(first.searchAttributes()).containsEntry("amount", (long) i)
			.containsEntry("customer", "c-" + (i % 1000));
		assertThat(first.memo()).containsEntry("i", (long) i);
	}

	private void assertUsesIndex(VisibilityRepository.Query query) {
		String plan = jdbc().queryForObject("EXPLAIN (FORMAT JSON) " + query.sql(), String.class,
				query.args().toArray());
		List<JsonNode> nodes = new ArrayList<>();
		collect(JSON.readTree(plan).get(0).get("Plan"), nodes);
		assertThat(nodes).as("plan %s", plan)
			.noneMatch((n) -> n.path("Node Type").asString().equals("Seq Scan")
					&& n.path("Relation Name").asString().equals("visibility"));
		assertThat(nodes).as("plan %s", plan)
			.anyMatch((n) -> List.of("Index Scan", "Index Only Scan", "Bitmap Index Scan")
				.contains(n.path("Node Type").asString()) && n.path("Index Name").asString().startsWith("visibility"));
	}

	private static void collect(JsonNode node, List<JsonNode> into) {
		into.add(node);
		for (JsonNode child : node.path("Plans")) {
			collect(child, into);
		}
	}

	@Test
	void namesAndValuesAreBoundEvenWhenTheyLookLikeSql() {
		// past the client's key check: the statement itself must treat them as data
		WorkflowFilter filter = new WorkflowFilter(null, null, null, null, null, null, null, List
			.of(new WorkflowFilter.Condition("customer' OR '1'='1", WorkflowFilter.Operator.EQ, List.of("c-7"))), null);
		assertThat(run(filter)).isEmpty();
		filter = new WorkflowFilter(null, null, null, null, null, null, null,
				List.of(new WorkflowFilter.Condition("amount') OR true; DROP TABLE visibility; --",
						WorkflowFilter.Operator.GT, List.of(0))),
				null);
		assertThat(run(filter)).isEmpty();
		filter = WorkflowFilter.ofType("type-7' OR '1'='1").eq("customer", "c-7\" OR \"1\"=\"1");
		assertThat(run(filter)).isEmpty();
		// nor can they escape the jsonpath literal they are written into
		filter = new WorkflowFilter(null, null, null, null, null, null, null,
				List.of(new WorkflowFilter.Condition("customer\" == \"c-7\" || $.\"amount", WorkflowFilter.Operator.EQ,
						List.of(1))),
				null);
		assertThat(run(filter)).isEmpty();
		filter = WorkflowFilter.all().in("customer", List.of("x\" || $.customer == \"c-7", "\\\" || true || \""));
		assertThat(run(filter)).isEmpty();
		assertThat(this.repository.count(this.namespace, WorkflowFilter.all())).isEqualTo(ROWS);
	}

	private List<?> run(WorkflowFilter filter) {
		VisibilityRepository.Query query = this.repository.listQuery(this.namespace, filter, null, 10);
		assertThat(query.sql()).doesNotContain("'1'='1").doesNotContain("DROP").doesNotContain("c-7");
		return jdbc().queryForList(query.sql(), query.args().toArray());
	}

}
