package dev.durable.workflow.internal.schedule;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.worker.Engine;

/** Wiring shared by the loop and the client. */
final class Schedules {

	private Schedules() {
	}

	static ScheduleRepository repository(Engine engine) {
		return new ScheduleRepository(new JdbcTemplate(engine.dataSource()), engine.config().schema());
	}

}
