package dev.durable.workflow.autoconfigure.quickstart;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The README's quick start, over real HTTP: an application with the starter, the embedded
 * database, one workflow and one activity, and no configuration of its own (only a free
 * port and a scratch data directory for the test), is started, signaled, queried and
 * updated.
 */
// Spring Security is on this module's test classpath for the secured-API test; the
// quick-start
// application has none, so its auto-configuration is left out here
@SpringBootTest(classes = ShopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "durable.workflow.web.operations-enabled=true", "spring.autoconfigure.exclude="
				+ "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration,"
				+ "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration,"
				+ "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration,"
				+ "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration,"
				+ "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
@ExtendWith(OutputCaptureExtension.class)
class QuickStartTest {

	@LocalServerPort
	private int port;

	private final HttpClient http = HttpClient.newHttpClient();

	@DynamicPropertySource
	static void scratchDatabase(DynamicPropertyRegistry registry) throws Exception {
		Path dataDirectory = Files.createTempDirectory("quickstart-pgdata");
		registry.add("durable.workflow.embedded-postgres.data-directory", dataDirectory::toString);
		registry.add("durable.workflow.embedded-postgres.port", () -> "0");
	}

	private HttpResponse<String> send(String method, String path, String body) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.header("Content-Type", "application/json")
			.method(method,
					(body != null) ? HttpRequest.BodyPublishers.ofString(body) : HttpRequest.BodyPublishers.noBody());
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	@Test
	void theStartupLogSaysWhereTheApiTheDashboardAndTheOpenApiDocumentAre(CapturedOutput output) {
		String root = "http://localhost:" + this.port;
		assertThat(output).containsOnlyOnce("Durable workflows: REST API at " + root + "/durable, dashboard at " + root
				+ "/durable/ui, OpenAPI document at " + root + "/v3/api-docs");
	}

	@Test
	void startSignalQueryUpdateOverHttp() throws Exception {
		assertThat(send("POST", "/durable/workflows",
				"{\"type\":\"order\",\"workflowId\":\"order-1\",\"input\":{\"item\":\"tea\",\"quantity\":2}}")
			.statusCode()).isEqualTo(201);
		assertThat(send("POST", "/durable/workflows/order-1/signals/addNote", "\"fragile\"").statusCode())
			.isEqualTo(202);
		await()
			.until(() -> send("GET", "/durable/workflows/order-1/queries/notes", null).body().equals("[\"fragile\"]"));
		HttpResponse<String> update = send("POST", "/durable/workflows/order-1/updates/setQuantity", "5");
		assertThat(update.statusCode()).isEqualTo(200);
		assertThat(update.body()).contains("\"result\":5");
		assertThat(send("POST", "/durable/workflows/order-1/updates/setQuantity", "0").statusCode()).isEqualTo(422);
		assertThat(send("POST", "/durable/workflows/order-1/signals/finish", null).statusCode()).isEqualTo(202);
		HttpResponse<String> result = send("GET", "/durable/workflows/order-1/result?wait=PT10S", null);
		assertThat(result.statusCode()).isEqualTo(200);
		assertThat(result.body()).contains("\"status\":\"COMPLETED\"").contains("5 x tea for 15");
	}

}
