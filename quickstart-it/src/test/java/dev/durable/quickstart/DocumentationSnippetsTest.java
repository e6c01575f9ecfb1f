package dev.durable.quickstart;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyNameException;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.PropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.util.ClassUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The code and configuration of the documentation are true: every {@code ```java} block
 * of the README and the guides ({@code docs/**}, but for the generated reference pages
 * and the dated benchmark runs) is, to the character, a tagged region of the snippet
 * sources under {@code src/test/java/dev/durable/docs}, which compile (and most of which
 * run) against this build; every {@code ```yaml} and {@code ```properties} block names
 * only properties that exist, with values their properties classes accept.
 * <p>
 * A block is marked with {@code <!-- snippet: NAME -->} on the line before it; its source
 * is the region between {@code // snippet:NAME} and {@code // end-snippet} (a block that
 * shows a class and the code that calls it is a region in parts,
 * {@code // snippet:NAME part 1}, {@code part 2}..., joined by an empty line). Both sides
 * are compared without their common indentation and trailing whitespace. The README's
 * quick-start files ({@code <!-- quickstart:file PATH -->}) are built by
 * {@link ReadmeQuickStartIT} instead. A region that no block shows fails too, so that the
 * sources do not keep code the documentation dropped.
 */
class DocumentationSnippetsTest {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Path SOURCES = Path.of("src", "test", "java", "dev", "durable", "docs")
		.toAbsolutePath()
		.normalize();

	private static final Set<String> UNCHECKED_DIRECTORIES = Set.of("docs/reference", "docs/benchmarks", "docs/runs");

	private static final Pattern FENCE = Pattern.compile("^(\\s*)```(\\w*)\\s*$");

	private static final Pattern SNIPPET_MARKER = Pattern.compile("^\\s*<!-- snippet: ([\\w.-]+) -->\\s*$");

	private static final Pattern QUICKSTART_MARKER = Pattern.compile("^\\s*<!-- quickstart:file \\S+ -->\\s*$");

	private static final Pattern REGION_START = Pattern.compile("^\\s*// snippet:([\\w.-]+)(?: part (\\d+))?\\s*$");

	private static final Pattern REGION_END = Pattern.compile("^\\s*// end-snippet\\s*$");

	/** Property prefixes whose keys must be known to some configuration metadata. */
	private static final List<String> CHECKED_PREFIXES = List.of("durable.", "spring.", "management.", "server.",
			"logging.");

	@Test
	void everyJavaBlockIsARegionOfTheSnippetSources() throws IOException {
		Map<String, Region> regions = regions();
		List<String> problems = new ArrayList<>();
		for (Block block : blocks()) {
			if (block.misplacedMarker() != null) {
				problems.add(block.where() + ": " + block.misplacedMarker());
			}
			if (!block.language().equals("java") || block.quickStart()) {
				continue;
			}
			String text = normalize(block.lines());
			if (block.marker() == null) {
				problems.add(block.where() + ": a ```java block without a <!-- snippet: NAME --> comment on the line"
						+ " before it (the closest region is " + closest(text, regions) + ")");
				continue;
			}
			Region region = regions.get(block.marker());
			if (region == null) {
				problems.add(block.where() + ": no region '" + block.marker() + "' in " + ROOT.relativize(SOURCES)
						+ " (the closest region is " + closest(text, regions) + ")");
			}
			else if (!region.text().equals(text)) {
				problems.add(block.where() + ": the block differs from region " + region + "; "
						+ firstDifference(text, region.text()));
			}
		}
		assertThat(problems).as("Java blocks of the documentation that are not their snippet source")
			.withFailMessage(() -> String.join("\n", problems))
			.isEmpty();
	}

	@Test
	void everyRegionIsShownByABlock() throws IOException {
		Set<String> shown = blocks().stream()
			.filter((block) -> block.marker() != null)
			.map(Block::marker)
			.collect(Collectors.toSet());
		List<String> unused = regions().values()
			.stream()
			.filter((region) -> !shown.contains(region.name()))
			.map((region) -> "region " + region + " is shown by no block of the documentation: show it"
					+ " (<!-- snippet: " + region.name() + " -->) or delete it")
			.toList();
		assertThat(unused).withFailMessage(() -> String.join("\n", unused)).isEmpty();
		assertThat(shown).as("snippets shown").hasSizeGreaterThan(30);
	}

	@Test
	void everyConfigurationBlockNamesKnownPropertiesWithValuesTheyAccept() throws IOException {
		Metadata metadata = Metadata.load();
		List<String> problems = new ArrayList<>();
		int checked = 0;
		for (Block block : blocks()) {
			PropertySourceLoader loader = switch (block.language()) {
				case "yaml", "yml" -> new YamlPropertySourceLoader();
				case "properties" -> new PropertiesPropertySourceLoader();
				default -> null;
			};
			if (loader == null) {
				continue;
			}
			checked++;
			String text = normalize(block.lines()) + "\n";
			Map<String, Object> properties = new LinkedHashMap<>();
			try {
				ByteArrayResource resource = new ByteArrayResource(text.getBytes(StandardCharsets.UTF_8),
						block.where());
				for (PropertySource<?> source : loader.load(block.where(), resource)) {
					EnumerablePropertySource<?> enumerable = (EnumerablePropertySource<?>) source;
					for (String name : enumerable.getPropertyNames()) {
						properties.put(name, enumerable.getProperty(name));
					}
				}
			}
			catch (IOException | RuntimeException ex) {
				problems.add(block.where() + ": the block does not load: " + ex.getMessage());
				continue;
			}
			if (properties.isEmpty()) {
				problems.add(block.where() + ": the block holds no property");
			}
			if (block.language().equals("properties")) {
				properties.forEach((name, value) -> {
					if (String.valueOf(value).matches("(?s).*\\s#.*")) {
						problems.add(block.where() + ": " + name + " = '" + value + "': in a .properties file a"
								+ " '#' after a value is part of the value; put the comment on a line of its own");
					}
				});
			}
			problems.addAll(metadata.check(block.where(), properties));
		}
		assertThat(problems).withFailMessage(() -> String.join("\n", problems)).isEmpty();
		assertThat(checked).as("configuration blocks checked").isGreaterThan(3);
	}

	/**
	 * The fenced blocks of the pages, with the snippet marker before each. Markers that
	 * are not followed by a {@code ```java} block are reported on the block after them.
	 */
	static List<Block> blocks() throws IOException {
		List<Block> blocks = new ArrayList<>();
		for (Path page : pages()) {
			List<String> lines = Files.readAllLines(page);
			String previous = null;
			for (int i = 0; i < lines.size(); i++) {
				Matcher fence = FENCE.matcher(lines.get(i));
				if (!fence.matches()) {
					if (!lines.get(i).isBlank()) {
						previous = lines.get(i);
					}
					continue;
				}
				int open = i;
				String indent = fence.group(1);
				List<String> content = new ArrayList<>();
				for (i++; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
					String line = lines.get(i);
					content.add(line.startsWith(indent) ? line.substring(indent.length()) : line.stripLeading());
				}
				Matcher marker = (previous != null) ? SNIPPET_MARKER.matcher(previous) : null;
				String name = (marker != null && marker.matches()) ? marker.group(1) : null;
				String language = fence.group(2);
				String misplaced = (name != null && !language.equals("java")) ? "the snippet marker '" + name
						+ "' stands before a ```" + language + " block, not a ```java one" : null;
				boolean quickStart = previous != null && QUICKSTART_MARKER.matcher(previous).matches();
				blocks.add(new Block(ROOT.relativize(page).toString(), open + 1, language, content,
						language.equals("java") ? name : null, quickStart, misplaced));
				previous = null;
			}
		}
		assertThat(blocks).as("code blocks of the documentation").hasSizeGreaterThan(40);
		return blocks;
	}

	/** README.md and the guides, without the generated and dated pages. */
	static List<Path> pages() throws IOException {
		List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
		try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
			docs.filter((file) -> file.toString().endsWith(".md"))
				.filter((file) -> UNCHECKED_DIRECTORIES.stream()
					.noneMatch((directory) -> file.startsWith(ROOT.resolve(directory))))
				.sorted()
				.forEach(pages::add);
		}
		return pages;
	}

	/** The tagged regions of the snippet sources, by name. */
	static Map<String, Region> regions() throws IOException {
		Map<String, Map<Integer, Part>> parts = new TreeMap<>();
		List<Path> sources;
		try (Stream<Path> files = Files.walk(SOURCES)) {
			sources = files.filter((file) -> file.toString().endsWith(".java")).sorted().toList();
		}
		List<String> problems = new ArrayList<>();
		for (Path source : sources) {
			List<String> lines = Files.readAllLines(source);
			for (int i = 0; i < lines.size(); i++) {
				Matcher start = REGION_START.matcher(lines.get(i));
				if (!start.matches()) {
					if (REGION_END.matcher(lines.get(i)).matches()) {
						problems.add(where(source, i + 1) + ": end-snippet without a snippet before it");
					}
					continue;
				}
				int first = i + 1;
				List<String> region = new ArrayList<>();
				for (i++; i < lines.size() && !REGION_END.matcher(lines.get(i)).matches(); i++) {
					if (REGION_START.matcher(lines.get(i)).matches()) {
						problems.add(where(source, i + 1) + ": a region inside region " + start.group(1));
					}
					region.add(lines.get(i));
				}
				if (i == lines.size()) {
					problems.add(where(source, first) + ": region " + start.group(1) + " has no end-snippet");
				}
				int number = (start.group(2) != null) ? Integer.parseInt(start.group(2)) : 0;
				Part previous = parts.computeIfAbsent(start.group(1), (name) -> new TreeMap<>())
					.put(number, new Part(where(source, first), normalize(region)));
				if (previous != null) {
					problems
						.add(where(source, first) + ": region " + start.group(1) + " is also at " + previous.where());
				}
			}
		}
		Map<String, Region> regions = new TreeMap<>();
		parts.forEach((name, numbered) -> {
			List<Integer> numbers = new ArrayList<>(numbered.keySet());
			boolean single = numbers.equals(List.of(0));
			boolean consecutive = numbers.get(0) == 1 && numbers.get(numbers.size() - 1) == numbers.size();
			if (!single && !consecutive) {
				problems.add("region " + name + ": parts " + numbers + " (either no part number, or parts 1 to n)");
			}
			regions.put(name,
					new Region(name, numbered.values().stream().map(Part::text).collect(Collectors.joining("\n\n")),
							numbered.values().stream().map(Part::where).toList()));
		});
		assertThat(problems).withFailMessage(() -> String.join("\n", problems)).isEmpty();
		assertThat(regions).as("regions in %s", SOURCES).isNotEmpty();
		return regions;
	}

	private static String where(Path source, int line) {
		return ROOT.relativize(source) + ":" + line;
	}

	/**
	 * The lines without trailing whitespace, leading and trailing empty lines, and the
	 * indentation they all share.
	 */
	static String normalize(List<String> lines) {
		List<String> stripped = new ArrayList<>(lines.stream().map(String::stripTrailing).toList());
		while (!stripped.isEmpty() && stripped.get(0).isEmpty()) {
			stripped.remove(0);
		}
		while (!stripped.isEmpty() && stripped.get(stripped.size() - 1).isEmpty()) {
			stripped.remove(stripped.size() - 1);
		}
		String common = null;
		for (String line : stripped) {
			if (line.isEmpty()) {
				continue;
			}
			String indent = line.substring(0, line.length() - line.stripLeading().length());
			if (common == null) {
				common = indent;
			}
			else {
				int same = 0;
				while (same < common.length() && same < indent.length() && common.charAt(same) == indent.charAt(same)) {
					same++;
				}
				common = common.substring(0, same);
			}
		}
		int cut = (common != null) ? common.length() : 0;
		return stripped.stream()
			.map((line) -> line.isEmpty() ? line : line.substring(cut))
			.collect(Collectors.joining("\n"));
	}

	/**
	 * The region sharing most lines with the text, for a reader looking for its source.
	 */
	private static String closest(String text, Map<String, Region> regions) {
		Set<String> lines = significantLines(text);
		return regions.values().stream().max(Comparator.comparingDouble((Region region) -> {
			Set<String> common = new HashSet<>(significantLines(region.text()));
			common.retainAll(lines);
			return (double) common.size() / Math.max(1, Math.max(lines.size(), significantLines(region.text()).size()));
		})).map(Region::toString).orElse("none");
	}

	private static Set<String> significantLines(String text) {
		return text.lines().map(String::strip).filter((line) -> line.length() > 3).collect(Collectors.toSet());
	}

	private static String firstDifference(String block, String region) {
		List<String> a = block.lines().toList();
		List<String> b = region.lines().toList();
		for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
			String left = (i < a.size()) ? a.get(i) : "(the block ends)";
			String right = (i < b.size()) ? b.get(i) : "(the region ends)";
			if (!left.equals(right)) {
				return "first difference on line " + (i + 1) + " of the block:\n    doc:    " + left + "\n    source: "
						+ right;
			}
		}
		return "no difference";
	}

	/** A fenced code block of a page. */
	record Block(String page, int line, String language, List<String> lines, String marker, boolean quickStart,
			String misplacedMarker) {

		String where() {
			return this.page + ":" + this.line;
		}

	}

	/** A tagged part of a snippet source. */
	record Part(String where, String text) {
	}

	/** A snippet: its text and where its parts are. */
	record Region(String name, String text, List<String> places) {

		@Override
		public String toString() {
			return this.name + " (" + String.join(", ", this.places) + ")";
		}

	}

	/**
	 * The configuration metadata of the test classpath: the starter's (generated from its
	 * properties classes) and Spring Boot's.
	 */
	record Metadata(Map<String, JsonNode> properties, Map<String, Class<?>> propertiesClasses) {

		static Metadata load() throws IOException {
			Map<String, JsonNode> properties = new TreeMap<>();
			Map<String, Class<?>> classes = new TreeMap<>(Comparator.reverseOrder());
			JsonMapper json = JsonMapper.builder().build();
			ClassLoader loader = DocumentationSnippetsTest.class.getClassLoader();
			for (String file : List.of("META-INF/spring-configuration-metadata.json",
					"META-INF/additional-spring-configuration-metadata.json")) {
				for (URL url : Collections.list(loader.getResources(file))) {
					JsonNode metadata;
					try (InputStream in = url.openStream()) {
						metadata = json.readTree(in);
					}
					metadata.path("properties").forEach((property) -> {
						properties.putIfAbsent(property.path("name").asString(), property);
					});
					metadata.path("groups").forEach((group) -> {
						String name = group.path("name").asString();
						// a @ConfigurationProperties class (a nested group has a source
						// method)
						if (name.startsWith("durable.") && group.path("sourceMethod").isMissingNode()) {
							classes.put(name, type(group.path("type").asString()));
						}
					});
				}
			}
			assertThat(properties).as("configuration metadata on the classpath")
				.containsKeys("durable.workflow.namespace", "spring.datasource.url", "logging.level",
						"management.endpoints.web.exposure.include");
			return new Metadata(properties, classes);
		}

		private static Class<?> type(String name) {
			try {
				return ClassUtils.forName(name.replaceAll("<.*", ""), DocumentationSnippetsTest.class.getClassLoader());
			}
			catch (ClassNotFoundException ex) {
				throw new IllegalStateException(ex);
			}
		}

		/**
		 * The problems of one block's properties: unknown names under the checked
		 * prefixes, and {@code durable.*} values that do not bind to the starter's
		 * properties classes.
		 */
		List<String> check(String where, Map<String, Object> block) {
			List<String> problems = new ArrayList<>();
			Map<String, Map<String, Object>> byClass = new TreeMap<>();
			for (Map.Entry<String, Object> property : block.entrySet()) {
				String key = property.getKey();
				if (CHECKED_PREFIXES.stream().noneMatch(key::startsWith)) {
					continue;
				}
				ConfigurationPropertyName name;
				try {
					name = ConfigurationPropertyName.of(key);
				}
				catch (InvalidConfigurationPropertyNameException ex) {
					problems.add(where + ": " + key + " is not a property name in canonical form (kebab-case)");
					continue;
				}
				JsonNode known = known(name);
				if (known == null) {
					problems.add(where + ": " + key + " is no property of the configuration metadata"
							+ (key.startsWith("durable.") ? " (docs/reference/configuration-properties.md lists them)"
									: ""));
					continue;
				}
				if (!key.startsWith("durable.")) {
					continue;
				}
				if (known.path("sourceType").isMissingNode()) {
					// declared by additional metadata only: bound where it is read
					bind(where, Map.of(key, property.getValue()), key, type(known.path("type").asString()), problems);
					continue;
				}
				String prefix = this.propertiesClasses.keySet()
					.stream()
					.filter((candidate) -> key.startsWith(candidate + "."))
					.findFirst()
					.orElse(null);
				if (prefix == null) {
					problems.add(where + ": " + key + " belongs to no properties class of the starter");
					continue;
				}
				byClass.computeIfAbsent(prefix, (ignored) -> new LinkedHashMap<>()).put(key, property.getValue());
			}
			byClass.forEach((prefix, properties) -> bind(where, properties, prefix, this.propertiesClasses.get(prefix),
					problems));
			return problems;
		}

		/**
		 * The metadata of the property, of the map property it is an entry of, or of the
		 * list property it is an element of; {@code null} when it is none of these.
		 */
		private JsonNode known(ConfigurationPropertyName name) {
			ConfigurationPropertyName property = name;
			while (property.isLastElementIndexed() && property.getNumberOfElements() > 1
					&& property.getLastElement(ConfigurationPropertyName.Form.ORIGINAL).matches("\\d+")) {
				property = property.getParent();
			}
			JsonNode exact = this.properties.get(property.toString());
			if (exact != null) {
				return exact;
			}
			for (ConfigurationPropertyName parent = property.getParent(); !parent.isEmpty(); parent = parent
				.getParent()) {
				JsonNode map = this.properties.get(parent.toString());
				if (map != null && map.path("type").asString().startsWith("java.util.Map<")) {
					return map;
				}
			}
			return null;
		}

		/**
		 * Binds the properties to the type, every one of them used, as the starter does.
		 */
		private static void bind(String where, Map<String, Object> properties, String prefix, Class<?> type,
				List<String> problems) {
			Binder binder = new Binder(
					ConfigurationPropertySources.from(new MapPropertySource(where, new LinkedHashMap<>(properties))));
			try {
				binder.bind(prefix, Bindable.of(type), new NoUnboundElementsBindHandler(BindHandler.DEFAULT));
			}
			catch (BindException ex) {
				Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
				Throwable root = NestedExceptionUtils.getMostSpecificCause(ex);
				problems.add(where + ": " + ex.getName() + " does not bind to " + type.getSimpleName() + ": "
						+ cause.getMessage() + ((root != cause) ? " (" + root.getMessage() + ")" : ""));
			}
		}

	}

}
