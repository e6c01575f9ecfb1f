package dev.durable.quickstart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's quick start, copied literally, is a working application: its snippets are
 * written to an empty directory, a test of its own is added
 * ({@code src/it/quickstart-app}), and a child Maven builds and tests it against this
 * build's artifacts (installed into a repository under {@code target/} by
 * maven-invoker-plugin, never into the user's), with every other artifact read from this
 * build's local repository or Maven Central. That test runs a workflow to its result and
 * checks that the application gets the Liquibase version of {@code durable-bom}, not the
 * 5.x that Spring Boot manages.
 */
class ReadmeQuickStartIT {

	private static final Pattern BOM_LIQUIBASE = Pattern
		.compile("<durable\\.liquibase\\.version>([^<]+)</durable\\.liquibase\\.version>");

	private static Path path(String property) {
		String value = System.getProperty(property);
		assertThat(value).as("system property %s (set by the module's failsafe configuration)", property).isNotBlank();
		return Path.of(value).toAbsolutePath().normalize();
	}

	private static String bomLiquibaseVersion() throws IOException {
		Matcher matcher = BOM_LIQUIBASE.matcher(Files.readString(path("quickstart.bom")));
		assertThat(matcher.find()).as("durable.liquibase.version in durable-bom").isTrue();
		return matcher.group(1);
	}

	@Test
	void quickStartBuildsAndRunsAWorkflowOnDurablesLiquibase() throws Exception {
		Map<String, String> files = ReadmeSnippets.read(path("quickstart.readme"));
		assertThat(files).containsKeys("pom.xml", "src/main/resources/application.yml",
				"src/main/java/com/example/shop/ShopApplication.java", "src/main/java/com/example/shop/Pricing.java",
				"src/main/java/com/example/shop/OrderWorkflow.java");
		Path app = path("quickstart.directory");
		deleteRecursively(app);
		Instant begun = Instant.now();
		for (Map.Entry<String, String> file : files.entrySet()) {
			write(app.resolve(file.getKey()), file.getValue());
		}
		String liquibase = bomLiquibaseVersion();
		copyTemplate(path("quickstart.template"), app, liquibase);
		Path settings = app.resolve("../quickstart-settings.xml").normalize();
		write(settings, settings(path("quickstart.mirror")));

		Path log = app.resolve("../quickstart-build.log").normalize();
		int exit = maven(app, settings, log);
		String output = Files.readString(log);
		assertThat(exit).as("the quick-start build failed; its log (%s) ends with:%n%s", log, tail(output, 80))
			.isZero();
		// the application's own test ran, every method
		assertThat(output).containsPattern(
				"Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, .* in com.example.shop.ShopApplicationTests");
		reportTimeToFirstWorkflow(begun, app);
	}

	/**
	 * From an empty directory to the first completed workflow: writing the files, the
	 * build (compile, the application's start) and the run, with every artifact already
	 * in a local repository. Reported, not asserted: it measures the machine as much as
	 * Durable.
	 */
	private static void reportTimeToFirstWorkflow(Instant begun, Path app) throws IOException {
		Path marker = app.resolve("target/first-workflow-completed");
		assertThat(marker).as("written by the application's test when the order completed").exists();
		Duration elapsed = Duration.between(begun, Instant.parse(Files.readString(marker).strip()));
		String report = "quick start: %.1f s from an empty directory to the first completed workflow%n"
			.formatted(elapsed.toMillis() / 1000.0);
		System.out.print(report);
		Files.writeString(app.resolve("../quickstart-timing.txt").normalize(), report);
	}

	@Test
	void parentBuildUsesTheLiquibaseVersionOfTheBom() throws Exception {
		// durable-parent repeats the version as <liquibase.version> (the Boot parent's
		// management
		// wins over the BOM it imports); this module's classpath is resolved by that
		// management
		String jar = liquibase.Liquibase.class.getProtectionDomain().getCodeSource().getLocation().getPath();
		assertThat(jar).endsWith("/liquibase-core-" + bomLiquibaseVersion() + ".jar");
	}

	private static int maven(Path app, Path settings, Path log) throws Exception {
		Path mavenHome = path("quickstart.maven-home");
		List<String> command = new ArrayList<>(
				List.of(mavenHome.resolve("bin/mvn").toString(), "-B", "-ntp", "-Dstyle.color=never", "-s",
						settings.toString(), "-Dmaven.repo.local=" + path("quickstart.repository"), "verify"));
		ProcessBuilder builder = new ProcessBuilder(command).directory(app.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile());
		// the JDK this test runs on (the build's, 21 or newer), whatever JAVA_HOME the
		// shell had
		builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
		builder.environment().remove("MAVEN_ARGS");
		Process process = builder.start();
		if (!process.waitFor(10, TimeUnit.MINUTES)) {
			process.destroyForcibly();
			throw new AssertionError("The quick-start build took more than 10 minutes; log: " + log);
		}
		return process.exitValue();
	}

	/**
	 * Settings of the child build: this build's local repository is read as a remote
	 * repository before Maven Central, so that what is here already is copied, not
	 * downloaded (a local repository has no checksum files, hence no checksum check).
	 */
	private static String settings(Path localRepository) {
		String repository = """
				<id>this-build-local-repository</id>
				<url>%s</url>
				<releases><enabled>true</enabled><checksumPolicy>ignore</checksumPolicy></releases>
				<snapshots><enabled>false</enabled></snapshots>
				""".formatted(localRepository.toUri());
		return """
				<settings>
				  <profiles>
				    <profile>
				      <id>quickstart</id>
				      <repositories><repository>%s</repository></repositories>
				      <pluginRepositories><pluginRepository>%s</pluginRepository></pluginRepositories>
				    </profile>
				  </profiles>
				  <activeProfiles><activeProfile>quickstart</activeProfile></activeProfiles>
				</settings>
				""".formatted(repository, repository);
	}

	private static void copyTemplate(Path template, Path app, String liquibaseVersion) throws IOException {
		try (Stream<Path> paths = Files.walk(template)) {
			for (Path file : paths.filter(Files::isRegularFile).toList()) {
				String content = Files.readString(file).replace("@liquibase.version@", liquibaseVersion);
				write(app.resolve(template.relativize(file).toString()), content);
			}
		}
	}

	private static void write(Path file, String content) throws IOException {
		Files.createDirectories(file.getParent());
		Files.writeString(file, content);
	}

	private static void deleteRecursively(Path directory) throws IOException {
		if (!Files.exists(directory)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(directory)) {
			for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.delete(path);
			}
		}
	}

	private static String tail(String text, int lines) {
		String[] all = text.split("\n");
		return String.join("\n", List.of(all).subList(Math.max(0, all.length - lines), all.length));
	}

}
