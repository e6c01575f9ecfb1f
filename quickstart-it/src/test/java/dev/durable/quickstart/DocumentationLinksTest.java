package dev.durable.quickstart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documentation holds together: every relative link of the README, the changelog and
 * the guides in {@code docs/} reaches a file of the repository, and every {@code #anchor}
 * a heading of the page it names (as GitHub derives anchors from headings); the README
 * stays a page of at most 300 lines.
 */
class DocumentationLinksTest {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

	private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$");

	@Test
	void everyRelativeLinkAndAnchorResolves() throws IOException {
		List<String> broken = new ArrayList<>();
		for (Path page : pages()) {
			Matcher links = LINK.matcher(withoutCode(Files.readString(page)));
			while (links.find()) {
				String target = links.group(1);
				if (target.matches("^(https?|mailto):.*")) {
					continue;
				}
				int hash = target.indexOf('#');
				String file = (hash >= 0) ? target.substring(0, hash) : target;
				Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
				if (!Files.exists(resolved)) {
					broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
				}
				else if (hash >= 0 && resolved.toString().endsWith(".md")
						&& !anchors(resolved).contains(target.substring(hash + 1))) {
					broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
				}
			}
		}
		assertThat(broken).as("broken links").isEmpty();
	}

	@Test
	void theReadmeIsAPage() throws IOException {
		assertThat(Files.readAllLines(ROOT.resolve("README.md"))).as("README.md's lines").hasSizeLessThanOrEqualTo(300);
	}

	private static List<Path> pages() throws IOException {
		List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CHANGELOG.md")));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((file) -> file.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		assertThat(pages).hasSizeGreaterThan(5);
		return pages;
	}

	/** The page without its fenced code blocks, where brackets are code, not links. */
	private static String withoutCode(String text) {
		return text.replaceAll("(?s)```.*?```", "");
	}

	private static Set<String> anchors(Path page) throws IOException {
		Set<String> anchors = new HashSet<>();
		for (String line : withoutCode(Files.readString(page)).split("\n")) {
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()) {
				anchors.add(heading.group(1)
					.strip()
					.toLowerCase(Locale.ROOT)
					.replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
					.replace(' ', '-'));
			}
		}
		return anchors;
	}

}
