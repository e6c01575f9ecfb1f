package dev.durable.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The words of a command line: positional arguments and {@code --name value} (or
 * {@code --name=value}) options, which may stand anywhere; {@code --} ends the options.
 * Flags take no value; a negative number is an argument. A command names the options it
 * takes ({@link #allowOnly}), so a misspelt one is a usage error rather than ignored.
 */
final class CommandLine {

	/** Options every command takes. */
	static final Set<String> GLOBAL = Set.of("url", "token", "user", "output", "help");

	/** Options without a value. */
	private static final Set<String> FLAGS = Set.of("help", "follow", "confirm-all", "open-only", "paused", "off",
			"newest", "drop-heartbeat-details");

	private static final Map<String, String> SHORT = Map.of("-o", "output", "-h", "help", "-f", "follow");

	/** A negative number is an argument (a JSON payload), not an option. */
	private static final Pattern NEGATIVE_NUMBER = Pattern.compile("-[0-9][0-9.eE+-]*");

	private final List<String> positionals;

	private final Map<String, List<String>> options;

	private CommandLine(List<String> positionals, Map<String, List<String>> options) {
		this.positionals = positionals;
		this.options = options;
	}

	static CommandLine parse(String[] args) {
		List<String> positionals = new ArrayList<>();
		Map<String, List<String>> options = new LinkedHashMap<>();
		boolean onlyPositionals = false;
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			if (onlyPositionals || !arg.startsWith("-") || arg.equals("-") || NEGATIVE_NUMBER.matcher(arg).matches()) {
				positionals.add(arg);
				continue;
			}
			if (arg.equals("--")) {
				onlyPositionals = true;
				continue;
			}
			String name;
			String value = null;
			if (SHORT.containsKey(arg)) {
				name = SHORT.get(arg);
			}
			else if (arg.startsWith("--") && arg.length() > 2) {
				name = arg.substring(2);
				int equals = name.indexOf('=');
				if (equals >= 0) {
					value = name.substring(equals + 1);
					name = name.substring(0, equals);
				}
			}
			else {
				throw CliException.usage("Unknown option " + arg);
			}
			if (FLAGS.contains(name)) {
				if (value != null) {
					throw CliException.usage("--" + name + " takes no value");
				}
				value = "true";
			}
			else if (value == null) {
				if (i + 1 >= args.length) {
					throw CliException.usage("--" + name + " needs a value");
				}
				value = args[++i];
			}
			options.computeIfAbsent(name, (n) -> new ArrayList<>()).add(value);
		}
		return new CommandLine(List.copyOf(positionals), options);
	}

	/** The positional argument at an index, or {@code null}. */
	@Nullable String positional(int index) {
		return (index < this.positionals.size()) ? this.positionals.get(index) : null;
	}

	/** The positional argument at an index; missing, a usage error naming what it is. */
	String required(int index, String what) {
		String value = positional(index);
		if (value == null) {
			throw CliException.usage("Missing " + what);
		}
		return value;
	}

	/** Refuses positional arguments past the first {@code count}. */
	CommandLine atMost(int count) {
		if (this.positionals.size() > count) {
			throw CliException.usage("Unexpected argument '" + this.positionals.get(count) + "'");
		}
		return this;
	}

	/** Refuses options other than the global ones and those named. */
	CommandLine allowOnly(String... names) {
		Set<String> allowed = new TreeSet<>(GLOBAL);
		allowed.addAll(List.of(names));
		for (String name : this.options.keySet()) {
			if (!allowed.contains(name)) {
				allowed.removeAll(GLOBAL);
				throw CliException.usage("Unknown option --" + name + ((allowed.isEmpty()) ? ""
						: "; this command takes " + allowed.stream().map((n) -> "--" + n).toList()));
			}
		}
		return this;
	}

	/** The last value of an option, or {@code null}. */
	@Nullable String option(String name) {
		List<String> values = this.options.get(name);
		return (values == null) ? null : values.get(values.size() - 1);
	}

	/** The last value of an option, or a default. */
	String option(String name, String otherwise) {
		String value = option(name);
		return (value != null) ? value : otherwise;
	}

	/** Every value of an option, a comma-separated value split. */
	List<String> options(String name) {
		List<String> values = new ArrayList<>();
		for (String value : this.options.getOrDefault(name, List.of())) {
			for (String part : value.split(",")) {
				if (!part.isBlank()) {
					values.add(part.strip());
				}
			}
		}
		return values;
	}

	boolean flag(String name) {
		return this.options.containsKey(name);
	}

	/** An option that is a whole number, or {@code null}. */
	@Nullable Integer number(String name) {
		String value = option(name);
		if (value == null) {
			return null;
		}
		try {
			return Integer.valueOf(value.strip());
		}
		catch (NumberFormatException ex) {
			throw CliException.usage("--" + name + " must be a whole number, not '" + value + "'");
		}
	}

}
