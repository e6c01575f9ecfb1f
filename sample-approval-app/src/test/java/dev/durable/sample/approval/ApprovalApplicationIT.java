package dev.durable.sample.approval;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.durable.workflow.engine.WorkflowEngine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application boots on its embedded PostgreSQL (a fresh data directory, a free port).
 */
@SpringBootTest(properties = { "durable.workflow.embedded-postgres.data-directory=target/it-${random.uuid}/pgdata",
		"durable.workflow.embedded-postgres.port=0" })
class ApprovalApplicationIT {

	@Autowired
	WorkflowEngine engine;

	@Test
	void boots() {
		assertThat(this.engine.isRunning()).isTrue();
	}

}
