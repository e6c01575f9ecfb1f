package dev.durable.sample.loan;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.web.client.RestClient;

import dev.durable.workflow.test.spring.DurableWorkflowTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The actuator endpoints the README's operations sections use are exposed by the sample's
 * configuration: health with the engine's contributor and its details, workflows and
 * metrics (same application as SampleProblemsTest).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "loan.simulated-work=0s", "loan.transient-failure-rate=0" })
@DurableWorkflowTest
class SampleActuatorTest {

	private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
	};

	@LocalServerPort
	int port;

	@Test
	@SuppressWarnings("unchecked")
	void healthWorkflowsAndMetricsAreExposed() {
		Map<String, Object> health = get("/actuator/health");
		Map<String, Object> durable = (Map<String, Object>) ((Map<String, Object>) health.get("components"))
			.get("durableWorkflow");
		assertThat(durable).containsKey("status");
		assertThat((Map<String, Object>) durable.get("details")).isNotEmpty();

		Map<String, Object> workflows = get("/actuator/workflows");
		assertThat(workflows).isNotEmpty();

		List<String> meters = (List<String>) get("/actuator/metrics").get("names");
		assertThat(meters).anyMatch((name) -> name.startsWith("durable.workflow."));
	}

	private Map<String, Object> get(String path) {
		return RestClient.create("http://localhost:" + this.port)
			.get()
			.uri(path)
			.retrieve()
			.onStatus((status) -> status.value() == 503, (request, response) -> {
			})
			.body(JSON);
	}

}
