package dev.durable.workflow.engine;

import java.sql.Connection;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node whose pool is exhausted by other work (an overloaded machine, a burst of
 * requests) still renews its lease: its heartbeat has a connection of its own and does
 * not wait behind the work for a pooled one, so the node neither fences itself nor is
 * declared dead while the database answers.
 */
class HeartbeatOwnConnectionTest {

	private final Engines engines = new Engines();

	private HikariDataSource pool;

	private final List<Connection> taken = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (Connection connection : this.taken) {
			connection.close();
		}
		this.engines.close();
		if (this.pool != null) {
			this.pool.close();
		}
	}

	@Workflow("busy-pool")
	public static class Idle {

		@WorkflowRun
		public String run() {
			return "done";
		}

	}

	private Timestamp lastHeartbeat(WorkflowEngine node) {
		return this.engines.jdbc()
			.queryForObject("SELECT last_heartbeat FROM " + this.engines.schema + ".node WHERE node_id = ?",
					Timestamp.class, node.nodeId());
	}

	private long incarnation(WorkflowEngine node) {
		return this.engines.jdbc()
			.queryForObject("SELECT incarnation FROM " + this.engines.schema + ".node WHERE node_id = ?", Long.class,
					node.nodeId());
	}

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void theHeartbeatRenewsTheLeaseWhileOtherWorkHoldsEveryPooledConnection() throws Exception {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(TestDatabase.jdbcUrl());
		config.setUsername("postgres");
		config.setMaximumPoolSize(3);
		// a waiting request gives up after a while, as an application's pool is
		// configured
		config.setConnectionTimeout(500);
		this.pool = new HikariDataSource(config);
		// a lease of 2.8 s: other nodes would take the runs over after 3 s of silence
		WorkflowEngine node = this.engines.start(this.engines.builder()
			.register(Idle.class)
			.dataSource(this.pool)
			.heartbeatInterval(Duration.ofMillis(200))
			.deadAfter(Duration.ofSeconds(3)));
		long incarnation = incarnation(node);

		// other work holds every connection the pool has left
		while (true) {
			try {
				this.taken.add(this.pool.getConnection());
			}
			catch (java.sql.SQLException ex) {
				break;
			}
		}
		assertThat(this.pool.getHikariPoolMXBean().getIdleConnections()).isZero();

		// heartbeats go on: each one the database answers renews the lease
		for (int i = 0; i < 20; i++) {
			Timestamp before = lastHeartbeat(node);
			await().atMost(Duration.ofSeconds(30)).until(() -> lastHeartbeat(node).after(before));
			assertThat(EngineInternals.node(node).isFenced()).isFalse();
		}
		// never declared dead: the same incarnation heartbeats
		assertThat(incarnation(node)).isEqualTo(incarnation);
	}

}
