package dev.durable.workflow.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The modules built on workflow-core (the Spring module, the test kits, the samples, the
 * benchmarks) use only its public role packages (workflow code, activities, failures,
 * payloads, client, engine, test support): no source file of theirs, main or test, names
 * {@code dev.durable.workflow.internal}.
 */
class ModuleBoundaryTest {

	private static final Pattern INTERNAL = Pattern.compile("\\bdev\\.durable\\.workflow\\.internal\\b");

	@Test
	void noModuleOutsideWorkflowCoreNamesAnInternalPackage() {
		Path root = repositoryRoot();
		List<Path> sources = sourcesOutsideCore(root);
		// the scan must see the other modules, or it proves nothing
		assertThat(sources).as("Java sources of the other modules").hasSizeGreaterThan(100);
		assertThat(sources).anyMatch((p) -> p.startsWith(root.resolve("workflow-spring-boot-autoconfigure")))
			.anyMatch((p) -> p.startsWith(root.resolve("workflow-test")))
			.anyMatch((p) -> p.startsWith(root.resolve("benchmarks")));
		List<String> offenders = new ArrayList<>();
		for (Path source : sources) {
			List<String> lines = read(source);
			for (int i = 0; i < lines.size(); i++) {
				if (namesInternal(lines.get(i))) {
					offenders.add(root.relativize(source) + ":" + (i + 1) + ": " + lines.get(i).trim());
				}
			}
		}
		assertThat(offenders).as("uses of workflow-core internals outside workflow-core").isEmpty();
	}

	@Test
	void theCheckRecognisesAnImportAndAFullyQualifiedName() {
		assertThat(namesInternal("import dev.durable.workflow.internal.worker.Engine;")).isTrue();
		assertThat(namesInternal("var row = (dev.durable.workflow.internal.store.RunRow) x;")).isTrue();
		assertThat(namesInternal("import dev.durable.workflow.client.WorkflowClient;")).isFalse();
		assertThat(namesInternal("import dev.durable.workflow.testsupport.EngineQuiescence;")).isFalse();
	}

	static boolean namesInternal(String line) {
		return INTERNAL.matcher(line).find();
	}

	/**
	 * The checkout's root: the parent of this module's directory (Maven runs tests in the
	 * module).
	 */
	static Path repositoryRoot() {
		Path module = Path.of("").toAbsolutePath();
		Path root = module.getParent();
		assertThat(root.resolve("workflow-core").resolve("pom.xml")).as("this module in its checkout").exists();
		return root;
	}

	private static List<Path> sourcesOutsideCore(Path root) {
		try (Stream<Path> modules = Files.list(root)) {
			List<Path> sources = new ArrayList<>();
			for (Path module : modules.filter((m) -> Files.isRegularFile(m.resolve("pom.xml"))).toList()) {
				Path src = module.resolve("src");
				if (module.getFileName().toString().equals("workflow-core") || !Files.isDirectory(src)) {
					continue;
				}
				try (Stream<Path> files = Files.walk(src)) {
					files.filter((f) -> f.toString().endsWith(".java")).forEach(sources::add);
				}
			}
			return sources;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static List<String> read(Path source) {
		try {
			return Files.readAllLines(source);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
