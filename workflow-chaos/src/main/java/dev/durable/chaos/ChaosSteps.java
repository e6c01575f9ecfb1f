package dev.durable.chaos;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityInfo;

/**
 * The chaos runs' activity: every execution inserts (workflow id, step, attempt, node)
 * into {@code chaos.step_execution} before it returns, so that an execution the engine
 * repeats shows as a second row (activities are at least once; the harness reports how
 * often).
 */
@Activity
public class ChaosSteps {

	private final JdbcTemplate jdbc;

	private final String node;

	public ChaosSteps(JdbcTemplate jdbc, @Value("${chaos.node:local}") String node) {
		this.jdbc = jdbc;
		this.node = node;
	}

	public int step(String workflowId, int step) {
		ActivityInfo info = ActivityContext.current().info();
		this.jdbc.update("INSERT INTO chaos.step_execution (workflow_id, step, attempt, node) VALUES (?, ?, ?, ?)",
				workflowId, step, info.attempt(), this.node);
		return step;
	}

}
