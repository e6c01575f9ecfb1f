package com.example.shop;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Added by ReadmeQuickStartIT to the application generated from the README's quick start (this
 * file is not in the README): the application starts as written, runs a workflow to its result,
 * serves what the README says it serves, and runs on the Liquibase version Durable needs.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ShopApplicationTests {

	@Autowired
	private WorkflowClient client;

	@Autowired
	private Environment environment;

	private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();

	// a free port and a scratch data directory: several builds may run on one machine
	@DynamicPropertySource
	static void scratchDatabase(DynamicPropertyRegistry registry) throws Exception {
		Path dataDirectory = Files.createTempDirectory(Path.of("target"), "pgdata");
		registry.add("durable.workflow.embedded-postgres.data-directory", dataDirectory::toString);
		registry.add("durable.workflow.embedded-postgres.port", () -> "0");
	}

	@Test
	void runsAnOrderToItsResult() throws Exception {
		WorkflowHandle<String> order = this.client.start(OrderWorkflow::run, new OrderWorkflow.Order("tea", 2),
				StartOptions.withId("order-1"));
		order.signal(OrderWorkflow::addNote, "fragile");
		assertThat(order.update(OrderWorkflow::setQuantity, 5)).isEqualTo(5);
		order.signal(OrderWorkflow::finish);
		assertThat(order.result(Duration.ofSeconds(60))).isEqualTo("5 x tea for 15");
		// ReadmeQuickStartIT reports the time from an empty directory to this point
		Files.writeString(Path.of("target", "first-workflow-completed"), Instant.now().toString());
	}

	@Test
	void servesTheDashboardSwaggerUiAndActuator() throws Exception {
		assertThat(get("/durable/ui")).contains("<html");
		assertThat(get("/swagger-ui.html")).contains("Swagger UI");
		assertThat(get("/v3/api-docs")).contains("\"/durable/workflows\"", "\"order\"");
		assertThat(get("/actuator/health")).contains("\"UP\"");
		assertThat(get("/actuator/workflows/order")).startsWith("{");
		assertThat(get("/actuator/prometheus")).contains("durable_workflow_");
	}

	@Test
	void runsOnTheLiquibaseVersionDurableNeeds() {
		String jar = liquibase.Liquibase.class.getProtectionDomain().getCodeSource().getLocation().getPath();
		assertThat(jar).endsWith("/liquibase-core-@liquibase.version@.jar");
	}

	private String get(String path) throws Exception {
		String port = this.environment.getRequiredProperty("local.server.port");
		HttpResponse<String> response = this.http.send(
				HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as("GET %s", path).isEqualTo(200);
		return response.body();
	}

}
