package dev.durable.workflow.schedule;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.support.Engines;

/** Workflows and queries shared by the schedule tests. */
public final class ScheduleFixtures {

	private ScheduleFixtures() {
	}

	/** Completes at once with its input and the time it ran. */
	@Workflow("sched-tick")
	public static class Tick {

		@WorkflowRun
		public String run(String name) {
			return name + "@" + Workflows.now();
		}

	}

	/** Runs until released by a signal (or canceled, or terminated). */
	@Workflow("sched-blocker")
	public static class Blocker {

		private boolean released;

		@WorkflowRun
		public String run(String name) {
			Workflows.await(() -> this.released);
			return name;
		}

		@SignalMethod
		public void release() {
			this.released = true;
		}

	}

	/**
	 * The runs whose workflow id starts with the prefix: workflow id, status, created_at;
	 * by id.
	 */
	public static List<Map<String, Object>> runs(Engines engines, String prefix) {
		return engines.jdbc()
			.queryForList("SELECT workflow_id, status, created_at, run_id FROM " + engines.schema
					+ ".workflow_run WHERE workflow_id LIKE ? ORDER BY workflow_id, created_at", prefix + "-%");
	}

	public static List<String> workflowIds(Engines engines, String prefix) {
		return runs(engines, prefix).stream().map((r) -> (String) r.get("workflow_id")).toList();
	}

	public static String status(Engines engines, String workflowId) {
		return engines.jdbc()
			.queryForObject("SELECT status FROM " + engines.schema + ".workflow_run WHERE workflow_id = ?"
					+ " ORDER BY created_at DESC LIMIT 1", String.class, workflowId);
	}

	public static Instant createdAt(Map<String, Object> run) {
		return ((Timestamp) run.get("created_at")).toInstant();
	}

}
