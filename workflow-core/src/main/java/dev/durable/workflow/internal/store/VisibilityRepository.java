package dev.durable.workflow.internal.store;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.client.WorkflowExecution;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowPage;
import dev.durable.workflow.internal.support.Attributes;

/**
 * The visibility row of each run (type, status, times, memo and search attributes as
 * jsonb) and the list and count queries over it. Every value of a filter, attribute names
 * included, reaches the database as a bound parameter; the statement text depends only on
 * the filter's shape. Equality is a jsonpath predicate ({@code @@}, GIN index); ranges
 * compare {@code ->} values of the same JSON type (no index of their own: they narrow
 * what the other conditions select). Lists are keyset-paginated on
 * {@code (start_time DESC, run_id DESC)}, which the indexes of 008-visibility.sql and
 * 017-visibility-indexes.sql serve (each justified by VisibilityIndexPlanTest).
 */
public final class VisibilityRepository {

	/** The largest page. */
	public static final int MAX_PAGE_SIZE = 1000;

	private static final String TOKEN_VERSION = "v1";

	private final JdbcTemplate jdbc;

	private final String schema;

	VisibilityRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/** Inserts the row of a new run (status RUNNING). */
	void insert(NewRun run) {
		this.jdbc.update(q("INSERT INTO #.visibility (run_id, namespace, workflow_id, workflow_type, status,"
				+ " start_time, memo, search_attributes) VALUES (?, ?, ?, ?, 'RUNNING', ?, ?::jsonb, ?::jsonb)"),
				run.runId(), run.namespace(), run.workflowId(), run.workflowType(), Sql.ts(run.createdAt()),
				jsonOrNull(run.memo()), jsonOrNull(run.searchAttributes()));
	}

	/** Writes a run's current memo and search attributes (inside its task's commit). */
	public void update(UUID runId, Map<String, Object> memo, Map<String, Object> searchAttributes) {
		this.jdbc.update(q("UPDATE #.visibility SET memo = ?::jsonb, search_attributes = ?::jsonb WHERE run_id = ?"),
				jsonOrNull(memo), jsonOrNull(searchAttributes), runId);
	}

	private static String jsonOrNull(Map<String, Object> values) {
		return (values == null || values.isEmpty()) ? null : Attributes.json(values);
	}

	/**
	 * A run's memo and search attributes.
	 *
	 * @param memo the memo (stored form)
	 * @param searchAttributes the search attributes (stored form)
	 */
	public record Stored(Map<String, Object> memo, Map<String, Object> searchAttributes) {
	}

	/** The current memo and search attributes of a run (empty maps when it has none). */
	public Stored attributes(UUID runId) {
		return this.jdbc
			.query(q("SELECT memo::text, search_attributes::text FROM #.visibility WHERE run_id = ?"),
					(rs, n) -> new Stored(Attributes.read(rs.getString(1)), Attributes.read(rs.getString(2))), runId)
			.stream()
			.findFirst()
			.orElse(new Stored(Map.of(), Map.of()));
	}

	/**
	 * What a run's first task starts from.
	 *
	 * @param input the encoded input
	 * @param attributes the memo and search attributes it was started with
	 */
	public record Start(byte[] input, Stored attributes) {
	}

	/**
	 * The input, memo and search attributes of a run that has not run a task yet, in one
	 * read.
	 */
	public Start start(UUID runId) {
		return this.jdbc.queryForObject(
				q("SELECT p.input, v.memo::text, v.search_attributes::text"
						+ " FROM #.run_payload p LEFT JOIN #.visibility v ON v.run_id = p.run_id WHERE p.run_id = ?"),
				(rs, n) -> new Start(rs.getBytes(1),
						new Stored(Attributes.read(rs.getString(2)), Attributes.read(rs.getString(3)))),
				runId);
	}

	/** Lists one page of runs of the namespace matching the filter, newest first. */
	public WorkflowPage list(String namespace, WorkflowFilter filter, int pageSize, String pageToken) {
		if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
			throw new IllegalArgumentException("Page size must be 1 to " + MAX_PAGE_SIZE + ": " + pageSize);
		}
		checkKeys(filter);
		Cursor after = (pageToken != null && !pageToken.isEmpty()) ? Cursor.decode(pageToken) : null;
		// one row more than the page tells whether another page follows
		Query query = listQuery(namespace, filter, after, pageSize + 1);
		List<Row> rows = this.jdbc.query(query.sql(), VisibilityRepository::mapRow, query.args().toArray());
		String next = null;
		if (rows.size() > pageSize) {
			rows = rows.subList(0, pageSize);
			Row last = rows.get(pageSize - 1);
			next = new Cursor(last.startTime(), last.execution().runId()).encode();
		}
		return new WorkflowPage(rows.stream().map(Row::execution).toList(), next);
	}

	/** Counts the runs of the namespace matching the filter. */
	public long count(String namespace, WorkflowFilter filter) {
		checkKeys(filter);
		Query query = countQuery(namespace, filter);
		Long count = this.jdbc.queryForObject(query.sql(), Long.class, query.args().toArray());
		return (count != null) ? count : 0;
	}

	private static void checkKeys(WorkflowFilter filter) {
		for (WorkflowFilter.Condition condition : filter.conditions()) {
			Attributes.checkKey(condition.attribute(), "search attribute");
		}
	}

	/**
	 * A statement with its bound arguments.
	 *
	 * @param sql the statement, with {@code ?} placeholders only
	 * @param args the arguments, in order
	 */
	record Query(String sql, List<Object> args) {
	}

	/**
	 * The list statement; package-private so that tests can EXPLAIN exactly what runs.
	 */
	Query listQuery(String namespace, WorkflowFilter filter, Cursor after, int limit) {
		List<Object> args = new ArrayList<>();
		// whether the run is paused: its run row, by primary key, for the runs of the
		// page
		// only
		StringBuilder sql = new StringBuilder("SELECT run_id, workflow_id, workflow_type, status, start_time,"
				+ " close_time, memo::text AS memo, search_attributes::text AS search_attributes, EXISTS (SELECT 1"
				+ " FROM #.workflow_run p WHERE p.run_id = #.visibility.run_id AND p.paused_at IS NOT NULL) AS paused,"
				+ " EXISTS (SELECT 1 FROM #.workflow_run f WHERE f.run_id = #.visibility.run_id AND f.task_attempt > 0"
				+ " AND " + Sql.open("f")
				+ ") AS task_failing, (SELECT convert_from(o.options, 'UTF8')::jsonb ->> 'summary'"
				+ " FROM #.run_payload o WHERE o.run_id = #.visibility.run_id) AS summary FROM #.visibility");
		where(sql, args, namespace, filter);
		if (after != null) {
			sql.append(" AND (start_time, run_id) < (?, ?)");
			args.add(Timestamp.from(after.startTime()));
			args.add(after.runId());
		}
		sql.append(" ORDER BY start_time DESC, run_id DESC LIMIT ?");
		args.add(limit);
		return new Query(q(sql.toString()), args);
	}

	/** The count statement; package-private for tests. */
	Query countQuery(String namespace, WorkflowFilter filter) {
		List<Object> args = new ArrayList<>();
		StringBuilder sql = new StringBuilder("SELECT count(*) FROM #.visibility");
		where(sql, args, namespace, filter);
		return new Query(q(sql.toString()), args);
	}

	private static void where(StringBuilder sql, List<Object> args, String namespace, WorkflowFilter filter) {
		sql.append(" WHERE namespace = ?");
		args.add(namespace);
		if (filter.type() != null) {
			sql.append(" AND workflow_type = ?");
			args.add(filter.type());
		}
		if (filter.statuses().size() == 1) {
			// equality, not = ANY of one: only then does PostgreSQL read
			// visibility_by_status in its (start_time, run_id) order and stop after a
			// page
			// (with = ANY it filtered a scan of visibility_by_start instead:
			// VisibilityIndexPlanTest)
			sql.append(" AND status = ?");
			args.add(RunStatus.of(filter.statuses().iterator().next()).name());
		}
		else if (!filter.statuses().isEmpty()) {
			sql.append(" AND status = ANY(?::text[])");
			args.add(filter.statuses()
				.stream()
				.map((status) -> RunStatus.of(status).name())
				.sorted()
				.toArray(String[]::new));
		}
		range(sql, args, "start_time", filter.startedFrom(), filter.startedTo());
		range(sql, args, "close_time", filter.closedFrom(), filter.closedTo());
		if (filter.workflowIdPrefix() != null) {
			sql.append(" AND workflow_id LIKE ? ESCAPE '!'");
			args.add(filter.workflowIdPrefix().replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%");
		}
		for (WorkflowFilter.Condition condition : filter.conditions()) {
			condition(sql, args, condition);
		}
		if (filter.paused() != null) {
			// only open runs are paused: a filter for paused runs reads the open ones
			sql.append(filter.paused() ? " AND status = 'RUNNING' AND EXISTS" : " AND NOT EXISTS")
				.append(" (SELECT 1 FROM #.workflow_run p WHERE p.run_id = #.visibility.run_id"
						+ " AND p.paused_at IS NOT NULL)");
		}
	}

	private static void range(StringBuilder sql, List<Object> args, String column, Instant from, Instant to) {
		// column is one of two constants, never caller input
		if (from != null) {
			sql.append(" AND ").append(column).append(" >= ?");
			args.add(Timestamp.from(from));
		}
		if (to != null) {
			sql.append(" AND ").append(column).append(" < ?");
			args.add(Timestamp.from(to));
		}
	}

	private static void condition(StringBuilder sql, List<Object> args, WorkflowFilter.Condition condition) {
		String key = condition.attribute();
		switch (condition.operator()) {
			case EQ, IN -> {
				if (condition.values().isEmpty()) {
					sql.append(" AND false");
					return;
				}
				// one jsonpath predicate, served by the GIN index; lax mode unwraps
				// arrays, so a
				// keyword list matches when it holds the value, and values of another
				// JSON type never
				// match. The path is a bound parameter; key and values in it are
				// JSON-escaped literals.
				StringBuilder path = new StringBuilder();
				for (Object value : condition.values()) {
					Object stored = Attributes.searchValue(key, value, false);
					path.append((path.length() > 0) ? " || " : "")
						.append("$.")
						.append(Attributes.valueJson(key))
						.append(" == ")
						.append(Attributes.valueJson(stored));
				}
				sql.append(" AND search_attributes @@ ?::jsonpath");
				args.add(path.toString());
			}
			default -> {
				Object stored = Attributes.searchValue(key, condition.values().get(0), false);
				String operator = switch (condition.operator()) {
					case GT -> ">";
					case GE -> ">=";
					case LT -> "<";
					default -> "<=";
				};
				// jsonb orders values of different types by type: compare only values of
				// the same type
				sql.append(" AND (jsonb_typeof(search_attributes -> ?) = ? AND search_attributes -> ? ")
					.append(operator)
					.append(" ?::jsonb)");
				args.add(key);
				args.add(Attributes.jsonType(stored));
				args.add(key);
				args.add(Attributes.valueJson(stored));
			}
		}
	}

	private record Row(WorkflowExecution execution, Instant startTime) {
	}

	private static Row mapRow(ResultSet rs, int n) throws SQLException {
		Instant start = Sql.instant(rs, "start_time");
		WorkflowExecution execution = new WorkflowExecution(rs.getString("workflow_id"), Sql.uuid(rs, "run_id"),
				rs.getString("workflow_type"), RunStatus.stored(rs.getString("status")).published(), start,
				Sql.instant(rs, "close_time"), Collections.unmodifiableMap(Attributes.read(rs.getString("memo"))),
				Attributes.searchView(Attributes.read(rs.getString("search_attributes"))), rs.getBoolean("paused"),
				rs.getBoolean("task_failing"), rs.getString("summary"));
		return new Row(execution, start);
	}

	/**
	 * Where a page ends: the last run's start time and run id. Its token is opaque to
	 * callers.
	 *
	 * @param startTime the start time (microseconds, as stored)
	 * @param runId the run id
	 */
	record Cursor(Instant startTime, UUID runId) {

		String encode() {
			long micros = Math.addExact(Math.multiplyExact(this.startTime.getEpochSecond(), 1_000_000L),
					this.startTime.getNano() / 1_000);
			String plain = TOKEN_VERSION + ":" + micros + ":" + this.runId;
			return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
		}

		static Cursor decode(String token) {
			try {
				String plain = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
				String[] parts = plain.split(":", -1);
				if (parts.length != 3 || !TOKEN_VERSION.equals(parts[0])) {
					throw new IllegalArgumentException("unknown format");
				}
				long micros = Long.parseLong(parts[1]);
				Instant start = Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
						Math.floorMod(micros, 1_000_000L) * 1_000L);
				return new Cursor(start, UUID.fromString(parts[2]));
			}
			catch (IllegalArgumentException | java.time.DateTimeException ex) {
				throw new IllegalArgumentException(
						"Invalid page token '" + token + "': pass the nextPageToken of the previous page unchanged",
						ex);
			}
		}

	}

}
