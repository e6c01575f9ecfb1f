package dev.durable.cli;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged tool as a person runs it: {@code java -jar target/durable-cli-*.jar} and
 * the {@code bin/durable} script, each in a JVM of its own, against the test application.
 */
class DurableJarIT extends CliTestSupport {

	private static final String JAVA = ProcessHandle.current().info().command().orElse("java");

	/**
	 * What a process printed and how it ended.
	 *
	 * @param exitCode its exit code
	 * @param out standard output
	 * @param err standard error
	 */
	record Ended(int exitCode, String out, String err) {
	}

	private static Path jar() throws IOException {
		try (Stream<Path> files = Files.list(Path.of("target"))) {
			return files.filter((f) -> f.getFileName().toString().matches("durable-cli-.*\\.jar"))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("no target/durable-cli-*.jar: run mvn verify"));
		}
	}

	private Ended run(List<String> command, Map<String, String> env) throws Exception {
		ProcessBuilder builder = new ProcessBuilder(command);
		builder.environment().put("DURABLE_URL", "http://localhost:" + this.port);
		builder.environment().put("JAVA", JAVA);
		builder.environment().remove("DURABLE_CLI_JAR");
		builder.environment().putAll(env);
		Path out = Files.createTempFile("durable-out", ".txt");
		Path err = Files.createTempFile("durable-err", ".txt");
		Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the tool ended").isTrue();
		return new Ended(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
				Files.readString(err, StandardCharsets.UTF_8));
	}

	private Ended java(String... args) throws Exception {
		List<String> command = new ArrayList<>(List.of(JAVA, "-jar", jar().toString()));
		command.addAll(List.of(args));
		return run(command, Map.of());
	}

	private Ended script(String... args) throws Exception {
		List<String> command = new ArrayList<>(List.of("sh", "bin/durable"));
		command.addAll(List.of(args));
		return run(command, Map.of());
	}

	@Test
	void theJarAndTheScriptRunTheToolAgainstTheApplication() throws Exception {
		Ended started = java("start", "ticket", "--id", "jar-t", "--input", "{\"title\":\"jar\",\"priority\":1}");
		assertThat(started.exitCode()).as("%s", started).isZero();
		assertThat(started.out()).contains("Workflow ID:", "jar-t");

		Ended described = script("-o", "json", "describe", "jar-t");
		assertThat(described.exitCode()).as("%s", described).isZero();
		assertThat(JsonMapper.builder().build().readTree(described.out()).path("status").asString())
			.isEqualTo("RUNNING");

		Ended help = script("--help");
		assertThat(help.exitCode()).isZero();
		assertThat(help.out()).contains("Usage: durable");

		Ended missing = java("describe", "no-such-run");
		assertThat(missing.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
		assertThat(missing.err()).contains("WORKFLOW_NOT_FOUND");
		assertThat(script("frobnicate").exitCode()).isEqualTo(ExitCode.USAGE);

		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		assertThat(java("--url", "http://127.0.0.1:" + closedPort, "list").exitCode()).isEqualTo(ExitCode.UNAVAILABLE);
	}

	/** A {@code java} that says it is Java 17 and runs nothing. */
	private static Path oldJava() throws IOException {
		Path home = Files.createTempDirectory("java-17");
		Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
		Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"17.0.9\" 2023-10-17' >&2\n");
		assertThat(java.toFile().setExecutable(true)).isTrue();
		return java;
	}

	@Test
	void theScriptPassesOverAJavaOlderThan21() throws Exception {
		Path old = oldJava();
		// the Java 17 of JAVA_HOME is passed over for the recent one on the PATH
		Path path = Files.createTempDirectory("durable-path");
		Files.createSymbolicLink(path.resolve("java"), Path.of(JAVA));
		Ended help = run(List.of("sh", "bin/durable", "--help"), Map.of("JAVA", "", "JAVA_HOME",
				old.getParent().getParent().toString(), "PATH", path + ":/usr/bin:/bin"));
		assertThat(help.exitCode()).as("%s", help).isZero();
		assertThat(help.out()).contains("Usage: durable");
	}

	@Test
	void theScriptRefusesAJavaOlderThan21ItIsGiven() throws Exception {
		Ended ended = run(List.of("sh", "bin/durable", "--help"), Map.of("JAVA", oldJava().toString()));
		assertThat(ended.exitCode()).isEqualTo(ExitCode.ERROR);
		assertThat(ended.err()).contains("needs Java 21 or later", "is Java 17");
	}

	@Test
	void theScriptSaysWhenItFindsNoJar() throws Exception {
		Path empty = Files.createTempDirectory("durable-bin");
		Path script = Files.copy(Path.of("bin", "durable"), empty.resolve("durable"));
		Ended ended = run(List.of("sh", script.toString(), "list"), Map.of());
		assertThat(ended.exitCode()).isEqualTo(ExitCode.ERROR);
		assertThat(ended.err()).contains("no durable-cli jar found");
	}

}
