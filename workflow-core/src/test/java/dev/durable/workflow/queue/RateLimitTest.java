package dev.durable.workflow.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.queue.QueueFlights.FlightWorkflow;
import dev.durable.workflow.queue.QueueFlights.Trip;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A queue's rate limit holds across the cluster, as a sliding window of the engine clock:
 * three nodes admit from one queue of 5 starts per second while the test moves the clock
 * through 20 seconds; no second of it sees more than 5 admissions, and the 20 seconds see
 * 100 within 10%.
 */
class RateLimitTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Test
	void threeNodesAdmitAtTheQueuesRate() throws Exception {
		QueueFlights flights = new QueueFlights(this.engines.jdbc(), this.engines.schema);
		QueueDefinition limited = QueueDefinition.named("limited").withRateLimit(5, Duration.ofSeconds(1));
		for (String name : List.of("a", "b", "c")) {
			this.engines.start(QueueFlights.node(this.engines.builder(), flights, name, limited));
		}
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false).queue(limited));
		Instant t0 = this.engines.clock.instant();
		// more than 20 seconds can admit; they wait for a signal once admitted, holding
		// their rows
		for (int i = 0; i < 150; i++) {
			client.client()
				.start(FlightWorkflow::run, new Trip(null, 0, true),
						QueueFlights.into("limited", "rated-" + i).build());
		}
		await().until(this::admitted, (n) -> n >= 5);
		Thread.sleep(200); // the other nodes' rounds of the same instant
		assertThat(admitted()).as("admitted at the first instant").isEqualTo(5);
		Instant end = t0.plus(Duration.ofSeconds(20));
		while (this.engines.clock.instant().isBefore(end)) {
			this.engines.clock.advance(Duration.ofMillis(50));
			Thread.sleep(15);
		}
		// the rounds at the end of the 20 seconds are not counted: only admissions inside
		// them
		String admissions = "SELECT admitted_at FROM " + this.engines.schema + ".queued_run WHERE state = 'ADMITTED'"
				+ " AND admitted_at < '" + end + "'";
		long inWindow = this.engines.jdbc().queryForObject("SELECT count(*) FROM (" + admissions + ") a", Long.class);
		assertThat(inWindow).as("admissions in 20 s at 5 per second").isBetween(90L, 110L);
		long busiestSecond = this.engines.jdbc()
			.queryForObject(
					"SELECT max((SELECT count(*) FROM (" + admissions + ") b WHERE b.admitted_at >= a.admitted_at"
							+ " AND b.admitted_at < a.admitted_at + interval '1 second')) FROM (" + admissions + ") a",
					Long.class);
		assertThat(busiestSecond).as("admissions in the busiest second").isEqualTo(5);
		assertThat(
				this.engines.jdbc()
					.queryForList("SELECT DISTINCT admitted_by FROM " + this.engines.schema
							+ ".queued_run WHERE admitted_by" + " IS NOT NULL", String.class))
			.as("nodes that admitted")
			.hasSizeGreaterThanOrEqualTo(2);
	}

	private long admitted() {
		return this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".queued_run WHERE state = 'ADMITTED'",
					Long.class);
	}

}
