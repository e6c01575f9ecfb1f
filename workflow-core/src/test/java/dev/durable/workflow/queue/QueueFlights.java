package dev.durable.workflow.queue;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.awaitility.core.ConditionTimeoutException;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;

import static org.awaitility.Awaitility.await;

/**
 * What queued workflows did, for the flow-control tests: an activity that records, in a
 * side table of the test's schema, when it began and ended (database clock), on which
 * node and for which partition, and the most of them in flight at once computed from
 * those intervals.
 */
final class QueueFlights {

	private final JdbcTemplate jdbc;

	private final String table;

	private volatile int meeting;

	QueueFlights(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.table = schema + ".flight";
		jdbc.execute("CREATE SCHEMA IF NOT EXISTS " + schema); // (the first engine's
																// start migrates the
																// rest)
		jdbc.execute("CREATE TABLE " + this.table + " (id uuid PRIMARY KEY, workflow_id text NOT NULL,"
				+ " node text NOT NULL, partition_key text, began timestamptz NOT NULL, ended timestamptz)");
	}

	/** The activity of one node: records its flight around a real pause. */
	@Activity
	public static class Flight {

		private final QueueFlights flights;

		private final String node;

		public Flight(QueueFlights flights, String node) {
			this.flights = flights;
			this.node = node;
		}

		public String fly(String workflowId, String partition, long millis) {
			UUID id = UUID.randomUUID();
			this.flights.jdbc.update(
					"INSERT INTO " + this.flights.table
							+ " (id, workflow_id, node, partition_key, began) VALUES (?, ?, ?, ?, clock_timestamp())",
					id, workflowId, this.node, partition);
			this.flights.awaitMeeting();
			try {
				Thread.sleep(millis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.flights.jdbc.update("UPDATE " + this.flights.table + " SET ended = clock_timestamp() WHERE id = ?",
					id);
			return workflowId + "@" + this.node;
		}

	}

	/**
	 * A workflow that flies once (after the signal {@code open} when gated): its slot is
	 * held from its admission to its close, the flight inside.
	 */
	@Workflow("queue-flight")
	public static class FlightWorkflow {

		private final Flight flight;

		private boolean open;

		public FlightWorkflow(Flight flight) {
			this.flight = flight;
		}

		@WorkflowRun
		public String run(Trip trip) {
			if (trip.gated()) {
				Workflows.await(() -> this.open);
			}
			return this.flight.fly(Workflows.info().workflowId(), trip.partition(), trip.millis());
		}

		@SignalMethod
		public void open() {
			this.open = true;
		}

	}

	/**
	 * @param partition the partition recorded, or {@code null}
	 * @param millis how long the flight lasts
	 * @param gated whether it waits for the signal {@code open} first
	 */
	public record Trip(String partition, long millis, boolean gated) {

		Trip(String partition, long millis) {
			this(partition, millis, false);
		}

	}

	/**
	 * Makes the first flights wait, before their pause, until this many have begun (on
	 * any node), at most 30 seconds: a test of a limit then sees the limit reached
	 * however slowly the machine starts and admits runs, and an engine that admits fewer
	 * at once than the limit still fails it.
	 */
	void meetUntil(int flights) {
		this.meeting = flights;
	}

	private void awaitMeeting() {
		if (this.meeting > 0) {
			try {
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(5))
					.until(() -> count("true") >= this.meeting);
			}
			catch (ConditionTimeoutException ex) {
				// the flight goes on: the test's own check tells that the limit was not
				// reached
			}
		}
	}

	/** A node running flights, declaring the queue. */
	static WorkflowEngine.Builder node(WorkflowEngine.Builder builder, QueueFlights flights, String name,
			QueueDefinition queue) {
		return builder.register(FlightWorkflow.class).registerActivities(new Flight(flights, name)).queue(queue);
	}

	/** Start options into the queue. */
	static StartOptions.Builder into(String queue, String workflowId) {
		return StartOptions.builder().workflowId(workflowId).queue(queue);
	}

	/**
	 * The most flights in the air at once, among those matching the condition on the
	 * table's columns (an unfinished flight counts until now).
	 */
	long maxInFlight(String condition) {
		Long max = this.jdbc.queryForObject("SELECT coalesce(max((SELECT count(*) FROM " + this.table + " o WHERE "
				+ condition.replace("#", "o") + " AND o.began <= f.began AND coalesce(o.ended, 'infinity') > f.began)),"
				+ " 0) FROM " + this.table + " f WHERE " + condition.replace("#", "f"), Long.class);
		return (max != null) ? max : 0;
	}

	long maxInFlight() {
		return maxInFlight("true");
	}

	long count(String condition) {
		Long count = this.jdbc.queryForObject(
				"SELECT count(*) FROM " + this.table + " f WHERE " + condition.replace("#", "f"), Long.class);
		return (count != null) ? count : 0;
	}

	List<String> nodes() {
		return this.jdbc.queryForList("SELECT DISTINCT node FROM " + this.table + " ORDER BY node", String.class);
	}

}
