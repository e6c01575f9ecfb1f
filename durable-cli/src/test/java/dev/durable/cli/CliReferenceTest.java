package dev.durable.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/reference/cli.md} is the tool's own {@code --help}, so the reference cannot
 * drift from the commands: this test fails when the page differs from what
 * {@code durable --help} prints, and rewrites it when run with
 * {@code -Ddurable.docs.write=true}.
 */
class CliReferenceTest {

	private static final Path PAGE = Path.of("..", "docs", "reference", "cli.md");

	@Test
	void theReferencePageIsTheToolsHelp() throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		int exit = DurableCli.run(new String[] { "--help" }, new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), Map.of());
		assertThat(exit).isZero();
		String generated = """
				# Command-line reference

				What `durable --help` prints; this page is generated from it by `CliReferenceTest`. The
				[guide](../cli.md) shows the tool at work.

				```text
				%s```
				""".formatted(out.toString(StandardCharsets.UTF_8));
		if (Boolean.getBoolean("durable.docs.write")) {
			Files.createDirectories(PAGE.getParent());
			Files.writeString(PAGE, generated);
		}
		assertThat(Files.exists(PAGE) ? Files.readString(PAGE) : "")
			.as("%s is generated: run this test with -Ddurable.docs.write=true and commit the page", PAGE.normalize())
			.isEqualTo(generated);
	}

}
