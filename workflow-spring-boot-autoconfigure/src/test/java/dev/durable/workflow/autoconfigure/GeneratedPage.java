package dev.durable.workflow.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A documentation page generated from the code: it must equal what the code gives, and is
 * rewritten when the tests run with {@code -Ddurable.docs.write=true}.
 */
public final class GeneratedPage {

	private GeneratedPage() {
	}

	/**
	 * Rewrites the page when asked to, then checks it is the one generated.
	 * @param page the page in the repository
	 * @param generated what the code gives
	 */
	public static void check(Path page, String generated) throws IOException {
		if (Boolean.getBoolean("durable.docs.write")) {
			Files.createDirectories(page.getParent());
			Files.writeString(page, generated);
		}
		assertThat(Files.exists(page) ? Files.readString(page) : "")
			.as("%s is generated: run its test with -Ddurable.docs.write=true and commit the page", page.normalize())
			.isEqualTo(generated);
	}

}
