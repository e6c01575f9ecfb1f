package dev.durable.workflow.internal.store;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementSetter;

/** Node registration and heartbeats. Staleness is judged by the database clock. */
public final class NodeRepository {

	private final JdbcTemplate jdbc;

	private final String schema;

	public NodeRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * Registers the node of a namespace, or registers it anew after it was declared dead.
	 * @return the incarnation to heartbeat with
	 */
	public long register(UUID nodeId, String namespace, String name, String buildId, Collection<String> types,
			Collection<String> queues) {
		return this.jdbc.query(
				q("INSERT INTO #.node (node_id, namespace, node_name, build_id, served_types,"
						+ " task_queues) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (node_id) DO UPDATE SET"
						+ " incarnation = #.node.incarnation + 1, last_heartbeat = now() RETURNING incarnation"),
				(PreparedStatementSetter) (ps) -> {
					ps.setObject(1, nodeId);
					ps.setString(2, namespace);
					ps.setString(3, name);
					ps.setString(4, buildId);
					ps.setArray(5, ps.getConnection().createArrayOf("text", types.toArray()));
					ps.setArray(6, ps.getConnection().createArrayOf("text", queues.toArray()));
				}, (rs, n) -> rs.getLong(1))
			.get(0);
	}

	/**
	 * Heartbeats this incarnation. Fails (false) once the node was stale: another node
	 * may have taken its runs, so it must evict everything and register anew.
	 */
	public boolean heartbeat(UUID nodeId, long incarnation, long deadAfterMillis) {
		return this.jdbc.update(
				q("UPDATE #.node SET last_heartbeat = now() WHERE node_id = ? AND incarnation = ?"
						+ " AND last_heartbeat > now() - make_interval(secs => ?)"),
				nodeId, incarnation, deadAfterMillis / 1000.0) == 1;
	}

	/**
	 * Fails when the database does not answer; changes nothing (see
	 * {@code NodeHeartbeat}).
	 */
	public void probe() {
		this.jdbc.queryForObject("SELECT 1", Integer.class);
	}

	public void unregister(UUID nodeId) {
		this.jdbc.update(q("DELETE FROM #.node WHERE node_id = ?"), nodeId);
	}

	/**
	 * Deletes rows of the namespace's nodes dead for a long time (and of nodes registered
	 * before nodes named their namespace): another namespace's nodes are judged by its
	 * own nodes, with its own dead-after.
	 */
	public int reap(String namespace, long olderThanMillis) {
		return this.jdbc.update(
				q("DELETE FROM #.node WHERE (namespace = ? OR namespace IS NULL)"
						+ " AND last_heartbeat < now() - make_interval(secs => ?)"),
				namespace, olderThanMillis / 1000.0);
	}

	/** Whether any node of the namespace, alive or not, declared it serves the type. */
	public boolean anyServes(String namespace, String workflowType) {
		// '*': a node with a dynamic workflow serves every type
		List<Integer> found = this.jdbc.query(
				q("SELECT 1 FROM #.node WHERE namespace = ?"
						+ " AND (? = ANY(served_types) OR '*' = ANY(served_types)) LIMIT 1"),
				(rs, n) -> 1, namespace, workflowType);
		return !found.isEmpty();
	}

}
