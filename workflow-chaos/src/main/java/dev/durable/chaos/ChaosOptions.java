package dev.durable.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What a chaos run does: how many workflows and nodes, for how long faults are applied,
 * and which.
 *
 * @param workflows runs started (spread over the first 60% of {@code duration})
 * @param nodes engine JVMs
 * @param duration how long faults are applied
 * @param kills SIGKILLs of a random node (each restarted 1-3 s later); {@code -1}: one
 * every 10-20 s
 * @param databaseRestarts database restarts, alternately {@code -m fast} and
 * {@code -m immediate}
 * @param cut how long one node's connections are cut (terminated as they appear); zero
 * for none
 * @param pause whether one node is paused with SIGSTOP past {@code dead-after}, then
 * resumed
 * @param timer each run's durable timer
 * @param settle how long to wait, after the faults, for every run to close
 * @param firstPort first port tried for the database and the nodes' HTTP servers
 * @param logDirectory where node logs and the report go
 * @param seed the seed of every random choice (fault times, victims, which signals go
 * early)
 * @param databaseUrl a JDBC URL of a database to use instead of starting a server (its
 * restarts are then skipped), or {@code null}
 * @param databaseUser its user
 * @param databasePassword its password
 * @param clockSkew how far the engine clocks of the first two nodes are off: node1 ahead
 * by it, node2 behind by it (the others right); zero for none
 * @param network the network faults ({@link #NETWORK_FAULTS}); none: the nodes and the
 * database share the host's loopback, as without the option
 */
record ChaosOptions(int workflows, int nodes, Duration duration, int kills, int databaseRestarts, Duration cut,
		boolean pause, Duration timer, Duration settle, int firstPort, Path logDirectory, long seed,
		@Nullable String databaseUrl, String databaseUser, String databasePassword, Duration clockSkew,
		List<String> network) {

	/** The node's {@code dead-after} (application.yaml): a pause must outlast it. */
	static final Duration DEAD_AFTER = Duration.ofSeconds(6);

	/**
	 * The network faults, in the order of the plan: one node partitioned from the
	 * database (both ways) past {@code dead-after}; the nodes partitioned from each
	 * other, not from the database; one node not hearing the database (its answers
	 * dropped, what it sends arrives) past {@code dead-after}; 2% packet loss on one
	 * node's link; 10-15 ms latency between one node and the database.
	 */
	static final List<String> NETWORK_FAULTS = List.of("partition", "nodes", "one-way", "loss", "latency");

	/**
	 * The first port of a run with network faults (the database's, then the nodes' and
	 * the proxy's).
	 */
	static final int NETWORK_FIRST_PORT = 18400;

	ChaosOptions {
		network = List.copyOf(network);
		for (String fault : network) {
			if (!NETWORK_FAULTS.contains(fault)) {
				throw new IllegalArgumentException("Unknown network fault " + fault
						+ ": expected true, false or some of " + String.join(",", NETWORK_FAULTS));
			}
		}
	}

	/** The full run: every fault, the sizes of the reliability issue. */
	static ChaosOptions full() {
		return new ChaosOptions(1000, 3, Duration.ofMinutes(4), -1, 2, Duration.ofSeconds(30), true,
				Duration.ofSeconds(2), Duration.ofMinutes(5), 18100, Path.of("target", "chaos"), 42, null, "postgres",
				"", Duration.ZERO, List.of());
	}

	/**
	 * The CI version: a minute, a few hundred workflows, 2 nodes, 3 kills, one database
	 * restart.
	 */
	static ChaosOptions smoke(Path logDirectory) {
		return new ChaosOptions(300, 2, Duration.ofSeconds(60), 3, 1, Duration.ZERO, false, Duration.ofSeconds(1),
				Duration.ofMinutes(4), 18100, logDirectory, 7, null, "postgres", "", Duration.ZERO, List.of());
	}

	/**
	 * The CI version of the network faults: 2 nodes, 300 workflows over 90 s, no kill or
	 * restart; one node partitioned from the database past {@code dead-after}, a one-way
	 * partition, 2% loss and 10 ms latency on one link.
	 */
	static ChaosOptions networkSmoke(Path logDirectory) {
		return new ChaosOptions(300, 2, Duration.ofSeconds(90), 0, 0, Duration.ZERO, false, Duration.ofSeconds(1),
				Duration.ofMinutes(4), NETWORK_FIRST_PORT, logDirectory, 11, null, "postgres", "", Duration.ZERO,
				List.of("partition", "one-way", "loss", "latency"));
	}

	/**
	 * The full run with {@code --name=value} arguments applied (names as the components).
	 */
	static ChaosOptions parse(String[] args) {
		Map<String, String> given = new HashMap<>();
		for (String arg : args) {
			if (!arg.startsWith("--") || !arg.contains("=")) {
				throw new IllegalArgumentException("Arguments are --name=value, got: " + arg);
			}
			given.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
		}
		ChaosOptions d = full();
		List<String> network = switch (given.getOrDefault("network", "false")) {
			case "false", "" -> List.of();
			case "true" -> NETWORK_FAULTS;
			default -> Arrays.asList(given.get("network").split(","));
		};
		int firstPort = network.isEmpty() ? d.firstPort() : NETWORK_FIRST_PORT;
		ChaosOptions options = new ChaosOptions(integer(given, "workflows", d.workflows()),
				integer(given, "nodes", d.nodes()), duration(given, "duration", d.duration()),
				integer(given, "kills", d.kills()), integer(given, "databaseRestarts", d.databaseRestarts()),
				duration(given, "cut", d.cut()), Boolean.parseBoolean(given.getOrDefault("pause", "" + d.pause())),
				duration(given, "timer", d.timer()), duration(given, "settle", d.settle()),
				integer(given, "firstPort", firstPort),
				Path.of(given.getOrDefault("logDirectory", d.logDirectory().toString())),
				Long.parseLong(given.getOrDefault("seed", "" + d.seed())), given.get("databaseUrl"),
				given.getOrDefault("databaseUser", d.databaseUser()),
				given.getOrDefault("databasePassword", d.databasePassword()),
				duration(given, "clockSkew", d.clockSkew()), network);
		given.keySet()
			.stream()
			.filter((k) -> !java.util.Set
				.of("workflows", "nodes", "duration", "kills", "databaseRestarts", "cut", "pause", "timer", "settle",
						"firstPort", "logDirectory", "seed", "databaseUrl", "databaseUser", "databasePassword",
						"clockSkew", "network")
				.contains(k))
			.findFirst()
			.ifPresent((k) -> {
				throw new IllegalArgumentException("Unknown option --" + k);
			});
		return options;
	}

	/** How far node {@code n}'s (1-based) engine clock is off: see {@code clockSkew}. */
	Duration clockOffset(int n) {
		return switch (n) {
			case 1 -> this.clockSkew;
			case 2 -> this.clockSkew.negated();
			default -> Duration.ZERO;
		};
	}

	private static int integer(Map<String, String> given, String name, int fallback) {
		return given.containsKey(name) ? Integer.parseInt(given.get(name)) : fallback;
	}

	/** An ISO-8601 duration ({@code PT90S}) or seconds ({@code 90}). */
	private static Duration duration(Map<String, String> given, String name, Duration fallback) {
		String value = given.get(name);
		if (value == null) {
			return fallback;
		}
		return value.startsWith("P") ? Duration.parse(value) : Duration.ofSeconds(Long.parseLong(value));
	}

}
