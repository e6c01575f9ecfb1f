package dev.durable.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the tool sends and how it reads answers, against a small HTTP server of the JDK
 * that records each request and answers what the test says: the base URL, bearer and
 * basic authentication from flags and the environment, query strings and headers, and the
 * exit codes of 401, 503, a 500 that is not JSON and a 200 that is not JSON.
 */
class CliConnectionTest {

	/**
	 * A request the server received.
	 *
	 * @param method its method
	 * @param uri its path and query, as sent
	 * @param authorization its Authorization header
	 * @param contentType its Content-Type header
	 * @param headers the other headers the tool may send
	 * @param body its body
	 */
	record Received(String method, String uri, @Nullable String authorization, @Nullable String contentType,
			Map<String, String> headers, String body) {
	}

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private HttpServer server;

	private volatile int status = 200;

	private volatile String contentType = "application/json";

	private volatile String answer = "{\"executions\":[],\"nextPageToken\":null}";

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	private void handle(HttpExchange exchange) throws IOException {
		Map<String, String> headers = new HashMap<>();
		for (String name : List.of("Idempotency-Key", "Update-Id", "Accept")) {
			String value = exchange.getRequestHeaders().getFirst(name);
			if (value != null) {
				headers.put(name, value);
			}
		}
		this.received.add(new Received(exchange.getRequestMethod(),
				exchange.getRequestURI().getRawPath() + ((exchange.getRequestURI().getRawQuery() != null)
						? "?" + exchange.getRequestURI().getRawQuery() : ""),
				exchange.getRequestHeaders().getFirst("Authorization"),
				exchange.getRequestHeaders().getFirst("Content-Type"), headers,
				new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
		byte[] body = this.answer.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", this.contentType);
		exchange.sendResponseHeaders(this.status, body.length);
		exchange.getResponseBody().write(body);
		exchange.close();
	}

	private String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	private CliTestSupport.Run cli(Map<String, String> env, String... args) {
		Map<String, String> withUrl = new HashMap<>(env);
		withUrl.putIfAbsent("DURABLE_URL", url());
		return CliTestSupport.cli(withUrl, args);
	}

	private Received last() {
		return this.received.get(this.received.size() - 1);
	}

	@Test
	void aUrlWithoutAPathGetsTheDefaultBasePathAndAnotherPathIsKept() {
		assertThat(cli(Map.of(), "list").exitCode()).isZero();
		assertThat(last().uri()).isEqualTo("/durable/workflows");
		assertThat(last().headers().get("Accept")).contains("application/json");
		assertThat(cli(Map.of(), "--url", url() + "/ops/workflow-api/", "list").exitCode()).isZero();
		assertThat(last().uri()).isEqualTo("/ops/workflow-api/workflows");
		assertThat(cli(Map.of("DURABLE_URL", url() + "/api"), "list").exitCode()).isZero();
		assertThat(last().uri()).isEqualTo("/api/workflows");
	}

	@Test
	void aBearerTokenFromTheFlagOrTheEnvironment() {
		cli(Map.of(), "--token", "t0k3n", "list");
		assertThat(last().authorization()).isEqualTo("Bearer t0k3n");
		cli(Map.of("DURABLE_TOKEN", "from-env"), "list");
		assertThat(last().authorization()).isEqualTo("Bearer from-env");
		cli(Map.of("DURABLE_TOKEN", "from-env"), "--token", "from-flag", "list");
		assertThat(last().authorization()).isEqualTo("Bearer from-flag");
		cli(Map.of(), "list");
		assertThat(last().authorization()).isNull();
	}

	@Test
	void basicAuthenticationFromTheFlagOrTheEnvironment() {
		String expected = "Basic " + Base64.getEncoder().encodeToString("ops:s3cret".getBytes(StandardCharsets.UTF_8));
		cli(Map.of(), "--user", "ops:s3cret", "list");
		assertThat(last().authorization()).isEqualTo(expected);
		cli(Map.of("DURABLE_USER", "ops", "DURABLE_PASSWORD", "s3cret"), "list");
		assertThat(last().authorization()).isEqualTo(expected);
		cli(Map.of("DURABLE_PASSWORD", "s3cret"), "--user", "ops", "list");
		assertThat(last().authorization()).isEqualTo(expected);

		int before = this.received.size();
		CliTestSupport.Run both = cli(Map.of("DURABLE_TOKEN", "t"), "--user", "ops:s3cret", "list");
		assertThat(both.exitCode()).isEqualTo(ExitCode.USAGE);
		assertThat(this.received).hasSize(before);
	}

	@Test
	void filtersPayloadsAndHeadersAsTheRestApiTakesThem() {
		cli(Map.of(), "list", "--status", "running", "--status", "failed,timed_out", "--query", "customer = 'c 42'",
				"--page-size", "5", "--page-token", "abc+/=");
		assertThat(last().uri()).isEqualTo("/durable/workflows?status=running&status=failed&status=timed_out"
				+ "&query=customer+%3D+%27c+42%27&pageSize=5&pageToken=abc%2B%2F%3D");

		this.answer = "";
		this.status = 202;
		assertThat(cli(Map.of(), "signal", "order 1", "addNote", "{\"text\":\"fragile\"}", "--idempotency-key", "k-1")
			.exitCode()).isZero();
		assertThat(last().method()).isEqualTo("POST");
		assertThat(last().uri()).isEqualTo("/durable/workflows/order%201/signals/addNote");
		assertThat(last().contentType()).isEqualTo("application/json");
		assertThat(last().body()).isEqualTo("{\"text\":\"fragile\"}");
		assertThat(last().headers()).containsEntry("Idempotency-Key", "k-1");

		assertThat(cli(Map.of(), "signal", "order-1", "finish").exitCode()).isZero();
		assertThat(last().body()).isEmpty();
		assertThat(last().contentType()).isNull();

		this.status = 200;
		this.answer = "{\"updateId\":\"u-1\",\"stage\":\"ACCEPTED\"}";
		assertThat(
				cli(Map.of(), "update", "order-1", "setQuantity", "5", "--update-id", "u-1", "--wait-for", "accepted")
					.out())
			.contains("ACCEPTED");
		assertThat(last().uri()).isEqualTo("/durable/workflows/order-1/updates/setQuantity?waitFor=accepted");
		assertThat(last().headers()).containsEntry("Update-Id", "u-1");
		assertThat(last().body()).isEqualTo("5");

		this.answer = "{\"batchId\":\"b\",\"state\":\"RUNNING\"}";
		cli(Map.of(), "batch", "start", "reset", "--type", "order", "--reset-to", "last", "--confirm-all",
				"--page-size", "10");
		assertThat(last().body()).isEqualTo("{\"operation\":\"RESET\",\"filter\":{\"type\":\"order\"},"
				+ "\"resetTo\":\"LAST_WORKFLOW_TASK\",\"confirmAll\":true,\"pageSize\":10}");
	}

	@Test
	void exitCodesOfTheServersAnswers() {
		this.status = 401;
		this.contentType = "application/problem+json";
		this.answer = "{\"status\":401,\"code\":\"UNAUTHENTICATED\",\"detail\":\"Sign in first\"}";
		CliTestSupport.Run unauthenticated = cli(Map.of(), "cancel", "order-1");
		assertThat(unauthenticated.exitCode()).isEqualTo(ExitCode.REJECTED);
		assertThat(unauthenticated.err()).contains("Sign in first (UNAUTHENTICATED, HTTP 401)");

		this.status = 403;
		this.answer = "{\"status\":403,\"code\":\"OPERATION_DISABLED\",\"detail\":\"Operations are off\"}";
		CliTestSupport.Run disabled = cli(Map.of(), "-o", "json", "terminate", "order-1", "--reason", "r");
		assertThat(disabled.exitCode()).isEqualTo(ExitCode.REJECTED);
		assertThat(disabled.json().path("code").asString()).isEqualTo("OPERATION_DISABLED");
		assertThat(last().body()).isEqualTo("{\"reason\":\"r\"}");

		this.status = 503;
		this.answer = "{\"status\":503,\"code\":\"DATABASE_UNAVAILABLE\",\"detail\":\"The database cannot be reached\"}";
		assertThat(cli(Map.of(), "list").exitCode()).isEqualTo(ExitCode.UNAVAILABLE);

		this.status = 500;
		this.contentType = "text/html";
		this.answer = "<html>proxy error</html>";
		CliTestSupport.Run proxy = cli(Map.of(), "describe", "order-1");
		assertThat(proxy.exitCode()).isEqualTo(ExitCode.UNAVAILABLE);
		assertThat(proxy.err()).contains("<html>proxy error</html>", "HTTP 500");

		this.status = 200;
		CliTestSupport.Run notJson = cli(Map.of(), "describe", "order-1");
		assertThat(notJson.exitCode()).isEqualTo(ExitCode.ERROR);
		assertThat(notJson.err()).contains("not JSON");
	}

}
