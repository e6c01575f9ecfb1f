package dev.durable.workflow.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Why each listing index exists: on 100,000 runs (run rows and visibility rows, as the
 * engine writes them), every documented filter's exact statement, as the repository
 * builds it, runs under {@code EXPLAIN (ANALYZE, FORMAT JSON)} and must read its rows
 * through the index named here and read about a page (or, for a time range or a count,
 * the rows it selects), never the 100,000. The retention batch is planned the same way
 * (inside a transaction rolled back).
 * <p>
 * Run i (1..100,000) starts at BASE + i seconds with workflow id order-i; its type is
 * rare-type when i % 500 == 0, else type-(i % 7); it is RUNNING when i % 50 == 7 (2%),
 * FAILED when i % 20 == 0 (5%), else COMPLETED, closed (i % 600) seconds after its start;
 * search attributes customer c-(i % 5000), amount i, region eu or us, except when i % 10
 * == 5 (none, not in the partial GIN index). 10,000 runs of another namespace sit beside
 * them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VisibilityIndexPlanTest {

	private static final int RUNS = 100_000;

	private static final int PAGE = 51; // a page of 50, plus the row that tells whether
										// another follows

	private static final Instant BASE = Instant.parse("2026-01-01T00:00:00Z");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Engines engines = new Engines();

	private VisibilityRepository visibility;

	private RetentionRepository retention;

	private String namespace;

	@BeforeAll
	void insertRuns() {
		// starting an engine migrates the schema
		this.namespace = EngineInternals.node(this.engines.start(this.engines.builder())).config().namespace();
		this.visibility = new VisibilityRepository(jdbc(), this.engines.schema);
		this.retention = new RetentionRepository(jdbc(), this.engines.schema);
		insert(this.namespace, 1, RUNS);
		insert("elsewhere", RUNS + 1, RUNS + 10_000);
		analyze();
	}

	/**
	 * Vacuums and analyzes the tables as autovacuum would, but with statistics from every
	 * row rather than ANALYZE's random sample (300 rows per unit of the statistics
	 * target: 30,000 of these 110,000 by default), and keeps autovacuum off them for the
	 * rest of the class: every run plans on the same statistics and the same visibility
	 * map. With a sample, the estimate of a search attribute predicate depends on whether
	 * a sampled value matching it happened to land among the column's histogram bounds;
	 * in about one ANALYZE of ten one did, the estimate grew a hundredfold and a page by
	 * start time looked cheaper than the GIN index.
	 */
	private void analyze() {
		String s = this.engines.schema;
		jdbc().execute((ConnectionCallback<Void>) (con) -> {
			try (Statement statement = con.createStatement()) {
				for (String table : List.of(s + ".visibility", s + ".workflow_run")) {
					statement.execute("ALTER TABLE " + table + " SET (autovacuum_enabled = false)");
					// a sample of 3,000,000 rows: all of them
					statement.execute("SET default_statistics_target = 10000");
					statement.execute("VACUUM (ANALYZE) " + table);
					statement.execute("RESET default_statistics_target");
				}
			}
			return null;
		});
	}

	private void insert(String namespace, int from, int to) {
		String s = this.engines.schema;
		String runs = "SELECT i, ('00000000-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid AS run_id,"
				+ " 'order-' || i AS workflow_id,"
				+ " CASE WHEN i % 500 = 0 THEN 'rare-type' ELSE 'type-' || (i % 7) END AS workflow_type,"
				+ " CASE WHEN i % 50 = 7 THEN 'RUNNING' WHEN i % 20 = 0 THEN 'FAILED' ELSE 'COMPLETED' END AS status,"
				+ " timestamptz '2026-01-01 00:00:00+00' + i * interval '1 second' AS start_time"
				+ " FROM generate_series(?::int, ?::int) AS i";
		String closed = "CASE WHEN status = 'RUNNING' THEN NULL ELSE start_time + (i % 600) * interval '1 second' END";
		jdbc().update("INSERT INTO " + s + ".workflow_run (run_id, namespace, workflow_id, workflow_type, task_queue,"
				+ " status, created_at, closed_at) SELECT run_id, ?, workflow_id, workflow_type, 'default', status,"
				+ " start_time, " + closed + " FROM (" + runs + ") g", namespace, from, to);
		jdbc().update("INSERT INTO " + s + ".visibility (run_id, namespace, workflow_id, workflow_type, status,"
				+ " start_time, close_time, memo, search_attributes) SELECT run_id, ?, workflow_id, workflow_type,"
				+ " status, start_time, " + closed + ", NULL, CASE WHEN i % 10 = 5 THEN NULL ELSE"
				+ " jsonb_build_object('customer', 'c-' || (i % 5000), 'amount', i, 'region',"
				+ " CASE WHEN i % 2 = 0 THEN 'eu' ELSE 'us' END) END FROM (" + runs + ") g", namespace, from, to);
	}

	@AfterAll
	void close() {
		this.engines.close();
	}

	private JdbcTemplate jdbc() {
		return this.engines.jdbc();
	}

	private static Instant second(int i) {
		return BASE.plus(Duration.ofSeconds(i));
	}

	// every run, newest first: the dashboard's and the CLI's default list

	@Test
	void everyRunNewestFirstReadsAPageByStartTime() {
		assertList(WorkflowFilter.all(), "visibility_by_start", PAGE);
	}

	@Test
	void aLaterPageStartsAtItsCursorByStartTime() {
		Plan plan = explain(this.visibility.listQuery(this.namespace, WorkflowFilter.all(),
				new VisibilityRepository.Cursor(second(40_000), runId(40_000)), PAGE));
		plan.assertReads("visibility_by_start", PAGE);
	}

	@Test
	void startedBetweenReadsAPageByStartTime() {
		assertList(WorkflowFilter.all().startedBetween(second(30_000), second(60_000)), "visibility_by_start", PAGE);
	}

	// type filter: the client's type(), REST ?type=, the dashboard's type picker, batch
	// filters

	@Test
	void aCommonTypeReadsAPageByType() {
		assertList(WorkflowFilter.ofType("type-3"), "visibility_by_type", PAGE);
	}

	@Test
	void aRareTypeReadsItsRunsByType() {
		// 200 runs of 100,000: without the index a page would be a scan of 25,000
		assertList(WorkflowFilter.ofType("rare-type"), "visibility_by_type", PAGE);
		assertCount(WorkflowFilter.ofType("rare-type"), "visibility_by_type", 200);
	}

	// status filter: REST ?status=, the dashboard's status tabs, batch filters, CLI
	// --status

	@Test
	void openRunsReadAPageByStatus() {
		assertList(WorkflowFilter.all().status(WorkflowStatus.RUNNING), "visibility_by_status", PAGE);
		assertCount(WorkflowFilter.all().status(WorkflowStatus.RUNNING), "visibility_by_status", 2_000);
	}

	@Test
	void failedRunsReadAPageByStatus() {
		assertList(WorkflowFilter.all().status(WorkflowStatus.FAILED), "visibility_by_status", PAGE);
	}

	@Test
	void severalStatusesReadTheirShareOfTheNewestRuns() {
		// = ANY of several statuses: the newest runs by start time, those of other
		// statuses skipped;
		// open or failed runs are 7% of these, so a page of 51 reads about 51 / 0.07 rows
		Plan plan = explain(this.visibility.listQuery(this.namespace,
				WorkflowFilter.all().status(WorkflowStatus.RUNNING, WorkflowStatus.FAILED), null, PAGE));
		plan.assertReadsAtMost(Set.of("visibility_by_start", "visibility_by_status"), 1_000);
	}

	@Test
	void typeAndStatusReadFewRows() {
		// either index narrows it; the planner takes the one it estimates smaller
		Plan plan = explain(this.visibility.listQuery(this.namespace,
				WorkflowFilter.ofType("rare-type").status(WorkflowStatus.FAILED), null, PAGE));
		plan.assertReadsAtMost(Set.of("visibility_by_type", "visibility_by_status"), 2 * PAGE);
	}

	// closed between: the client's closedBetween() (batches keep it)

	@Test
	void closedBetweenReadsItsTimeRangeByCloseTime() {
		// 10 minutes of closes: about 600 runs
		assertList(WorkflowFilter.all().closedBetween(second(50_000), second(50_600)), "visibility_closed", 1_200);
		assertCount(WorkflowFilter.all().closedBetween(second(50_000), second(50_600)), "visibility_closed", 1_200);
	}

	// workflow id prefix: REST ?workflowIdPrefix=, the dashboard's search box, batch
	// filters

	@Test
	void aWorkflowIdPrefixReadsItsRunsByWorkflowId() {
		// order-4321, order-43210..43219: 11 runs
		assertList(WorkflowFilter.all().workflowIdPrefix("order-4321"), "visibility_by_workflow_id", PAGE);
	}

	// search attributes: REST ?query=, the dashboard's query box, batch filters

	@Test
	void aSearchAttributeEqualityReadsItsRunsThroughTheGinIndex() {
		// c-42: 20 runs
		assertList(WorkflowFilter.all().eq("customer", "c-42"), "visibility_search", PAGE);
		assertCount(WorkflowFilter.all().eq("customer", "c-42"), "visibility_search", PAGE);
	}

	@Test
	void aSearchAttributeInReadsItsRunsThroughTheGinIndex() {
		assertList(WorkflowFilter.all().in("customer", List.of("c-42", "c-43")), "visibility_search", PAGE);
	}

	// retention: the oldest closed runs of the namespace, a batch at a time

	@Test
	void retentionReadsABatchOfTheOldestClosedRunsByCloseTime() {
		String sql = this.retention.deleteBatchStatement();
		Timestamp cutoff = Timestamp.from(second(20_000));
		String json = jdbc().execute((ConnectionCallback<String>) (con) -> {
			boolean auto = con.getAutoCommit();
			con.setAutoCommit(false);
			try {
				return explainOn(con, sql, List.of(this.namespace, cutoff, 500, cutoff));
			}
			finally {
				con.rollback();
				con.setAutoCommit(auto);
			}
		});
		Plan plan = new Plan(json);
		plan.assertReads("visibility_closed", 600);
		// the batch's run rows by primary key, never a scan of the run table
		assertThat(plan.indexes()).as(plan.json).contains("workflow_run_pkey");
		assertThat(plan.seqScans()).as(plan.json).doesNotContain("workflow_run", "visibility");
	}

	private void assertList(WorkflowFilter filter, String index, int maxRows) {
		explain(this.visibility.listQuery(this.namespace, filter, null, PAGE)).assertReads(index, maxRows);
	}

	private void assertCount(WorkflowFilter filter, String index, int maxRows) {
		explain(this.visibility.countQuery(this.namespace, filter)).assertReads(index, maxRows);
	}

	private Plan explain(VisibilityRepository.Query query) {
		return new Plan(
				jdbc().execute((ConnectionCallback<String>) (con) -> explainOn(con, query.sql(), query.args())));
	}

	private static String explainOn(Connection con, String sql, List<Object> args) throws java.sql.SQLException {
		try (PreparedStatement statement = con.prepareStatement("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)) {
			for (int i = 0; i < args.size(); i++) {
				statement.setObject(i + 1, args.get(i));
			}
			try (ResultSet rs = statement.executeQuery()) {
				rs.next();
				return rs.getString(1);
			}
		}
	}

	private static UUID runId(int i) {
		return UUID.fromString(String.format("00000000-0000-7000-8000-%012x", i));
	}

	/**
	 * An executed plan: which indexes it read and how many rows each scan node touched.
	 */
	private static final class Plan {

		final String json;

		final List<JsonNode> nodes = new ArrayList<>();

		Plan(String json) {
			this.json = json;
			collect(JSON.readTree(json).get(0).get("Plan"), this.nodes);
		}

		private static void collect(JsonNode node, List<JsonNode> into) {
			into.add(node);
			for (JsonNode child : node.path("Plans")) {
				collect(child, into);
			}
		}

		Set<String> indexes() {
			return this.nodes.stream()
				.map((n) -> n.path("Index Name").asString(""))
				.filter((name) -> !name.isEmpty())
				.collect(Collectors.toSet());
		}

		Set<String> seqScans() {
			return this.nodes.stream()
				.filter((n) -> n.path("Node Type").asString().equals("Seq Scan"))
				.map((n) -> n.path("Relation Name").asString(""))
				.collect(Collectors.toSet());
		}

		/**
		 * Rows a scan node touched: those it returned and those its filters threw away,
		 * over all loops.
		 */
		private static long touched(JsonNode n) {
			long perLoop = n.path("Actual Rows").asLong(0) + n.path("Rows Removed by Filter").asLong(0)
					+ n.path("Rows Removed by Index Recheck").asLong(0);
			return perLoop * Math.max(1, n.path("Actual Loops").asLong(1));
		}

		/** The most rows any scan of the visibility table touched. */
		long visibilityRowsRead() {
			return this.nodes.stream()
				.filter((n) -> n.path("Node Type").asString().contains("Scan")
						&& (n.path("Relation Name").asString("").equals("visibility")
								|| n.path("Index Name").asString("").startsWith("visibility")))
				.mapToLong(Plan::touched)
				.max()
				.orElse(0);
		}

		private static String testName() {
			return StackWalker.getInstance()
				.walk((frames) -> frames
					.filter((f) -> f.getClassName().equals(VisibilityIndexPlanTest.class.getName())
							&& !f.getMethodName().startsWith("assert") && !f.getMethodName().startsWith("explain"))
					.map(StackWalker.StackFrame::getMethodName)
					.findFirst()
					.orElse("?"));
		}

		void assertReads(String index, int maxRows) {
			assertReadsAtMost(Set.of(index), maxRows);
		}

		void assertReadsAtMost(Set<String> anyOf, int maxRows) {
			// the figures BENCHMARKS.md quotes ("Visibility indexes")
			System.out.printf("plan of %s: indexes %s, at most %d visibility rows read, %.3f ms%n", testName(),
					new TreeSet<>(indexes()), visibilityRowsRead(),
					JSON.readTree(this.json).get(0).path("Execution Time").asDouble());
			assertThat(seqScans()).as(this.json).doesNotContain("visibility");
			assertThat(indexes()).as(this.json).containsAnyElementsOf(anyOf);
			assertThat(visibilityRowsRead()).as(this.json).isPositive().isLessThanOrEqualTo(maxRows);
		}

	}

}
