package dev.durable.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.nio.file.Path;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.durable.cli.app.CliTestApplication;

/**
 * A real application on a random port (the starter, its embedded PostgreSQL, every
 * operation allowed) and the tool run in this JVM against it: {@link #cli} answers the
 * exit code and what it printed.
 */
@SpringBootTest(classes = CliTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "durable.workflow.schema=cli", "durable.workflow.embedded-postgres.port=0",
				"durable.workflow.worker.poll-interval=100ms", "durable.workflow.web.operations-enabled=true" })
abstract class CliTestSupport {

	/**
	 * A database of this JVM's own under target/, so that no run sees the workflows of
	 * another.
	 */
	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("durable.workflow.embedded-postgres.data-directory",
				() -> Path.of("target", "embedded-pg", UUID.randomUUID().toString()).toAbsolutePath().toString());
	}

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@LocalServerPort
	int port;

	/**
	 * What a run of the tool did.
	 *
	 * @param exitCode its exit code
	 * @param out what it printed on standard output
	 * @param err what it printed on standard error
	 */
	record Run(int exitCode, String out, String err) {

		JsonNode json() {
			return JSON.readTree(this.out);
		}

		@Override
		public String toString() {
			return "exit " + this.exitCode + "\n--- out:\n" + this.out + "--- err:\n" + this.err;
		}

	}

	/**
	 * Runs the tool with DURABLE_URL naming the application (host and port only: /durable
	 * is added).
	 */
	Run cli(String... args) {
		return cli(Map.of("DURABLE_URL", "http://localhost:" + this.port), args);
	}

	static Run cli(Map<String, String> env, String... args) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int code = DurableCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8), new HashMap<>(env));
		return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
	}

}
