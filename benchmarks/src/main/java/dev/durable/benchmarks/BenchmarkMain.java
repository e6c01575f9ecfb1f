package dev.durable.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import dev.durable.benchmarks.compare.ComparisonBenchmark;
import dev.durable.benchmarks.scale.ScaleOutBenchmark;

/**
 * Entry point of the load harness:
 * {@code BenchmarkMain <benchmark> [--option=value ...]}.
 * <p>
 * Benchmarks: {@code compare} (Durable and DBOS Transact side by side, see
 * {@link ComparisonBenchmark}) and {@code signal-latency} (see
 * {@link SignalLatencyBenchmark}).
 */
public final class BenchmarkMain {

	private static final String USAGE = """
			usage: BenchmarkMain compare [--option=value ...]
			       BenchmarkMain signal-latency [--option=value ...]
			       BenchmarkMain scale-out [--option=value ...]

			  ./mvnw -q -pl benchmarks -am compile spring-boot:run -Dspring-boot.run.arguments=compare
			  ./mvnw -q -pl benchmarks -am compile spring-boot:run -Dspring-boot.run.arguments=signal-latency
			  ./mvnw -q -pl benchmarks -am compile spring-boot:run -Dspring-boot.run.arguments=scale-out

			Each starts an embedded PostgreSQL 17 (a temporary data directory, deleted at the end).

			compare: Durable and DBOS Transact Java side by side on that one server, alternating
			(Durable, DBOS, Durable, DBOS), with workflows/s, p50 and p99, transactions and WAL flushes
			per workflow, and the ratio Durable/DBOS. Options (defaults in brackets):
			  --scenarios=a,b,...        steps3, steps20, queue8, taskqueue3, signal, parked, replay,
			                             ceiling, topic, sqlstart [all but queue8, topic, sqlstart]
			  --rounds=N                 rounds of each alternating scenario [2]
			  --extra-rounds=N           of those, the rounds that also measure the steps scenarios'
			                             local-activity and Flowable lines [1]
			  --jvm-warmup-ms=N          each engine's unmeasured run of 3-step workflows before the
			                             first measurement (half at 1 client, half at 16), for class
			                             loading and the JIT [10000]
			  --warmup-ms=N              warm-up before each measurement [2000]
			  --measure-ms=N             the time each measurement aims at [4000]
			  --signals=N                signal scenario: workflows signalled per round [200]
			  --parked=N                 parked scenario: workflows parked at once [10000]
			  --replay-events=N          replay scenario: events in the replayed history [10000]
			  --replays=N                replay scenario: replays measured [10]
			  --woken=N                  topic scenario: runs woken by one event, and by a signal
			                             each [10000]
			  --starts=N                 sqlstart scenario: workflows started from SQL, and from
			                             the client [10000]
			  --pool=N                   connections per engine [2 x cores + 4]
			  --settle-ms=N              wait before reading the server's counters [500]
			  --synchronous-commit=on|off, --fsync=on|off  [on, on: PostgreSQL's defaults]
			  --statements               load pg_stat_statements and print the statements each engine
			                             ran per workflow in the steps scenarios and per woken run in
			                             the parked one (a diagnosis, slower)

			signal-latency: signal-to-handler latency of Durable alone. Options (defaults in brackets):
			  --variants=a,b,c           one-node, two-nodes, concurrent [all three]
			  --warmup=N                 sequential variants: signals before measuring [200]
			  --signals=N                sequential variants: signals measured [2000]
			  --workflows=N              concurrent variant: runs signalled [50]
			  --threads=N                concurrent variant: sender threads [8]
			  --concurrent-warmup=N      concurrent variant: signals before measuring [1000]
			  --concurrent-signals=N     concurrent variant: signals measured [5000]
			  --pool=N                   connections per engine node [2 x cores + 4]
			  --synchronous-commit=on|off  PostgreSQL synchronous_commit [on, PostgreSQL's default]
			  --fsync=on|off             PostgreSQL fsync [on, PostgreSQL's default]
			  --max-seconds=N            bound on each variant's sending [60]

			scale-out: Durable on 1, 2 and 3 engine nodes, each a JVM of its own, on one PostgreSQL;
			the clients on a client-only node in this JVM. Options (defaults in brackets):
			  --nodes=1,2,3              node counts measured, in order [1,2,3]
			  --clients=N                client threads of the 3-step throughput [16]
			  --clients-per-node=true    --clients on each node (16 on 1, 48 on 3) rather than shared [false]
			  --warmup-ms=N / --measure-ms=N   unmeasured and measured time per node count [10000 / 8000]
			  --signals=N                runs parked, then signalled one by one, per node count [200]
			  --parked=N                 runs parked for the at-rest CPU, on the most nodes [20000]
			  --rest-ms=N                each at-rest window [10000]
			  --settle-ms=N              wait before each at-rest window [30000]
			  --pool=N                   connections per node [2 x cores + 4]
			""";

	private BenchmarkMain() {
	}

	public static void main(String[] args) {
		boolean help = Arrays.stream(args).anyMatch(BenchmarkMain::isHelp);
		String command = (args.length > 0) ? args[0] : "";
		if (help || !List.of("signal-latency", "compare", "scale-out").contains(command)) {
			System.out.print(USAGE);
			System.exit((args.length == 0 || help) ? 0 : 2);
			return;
		}
		String[] rest = Arrays.copyOfRange(args, 1, args.length);
		boolean ok;
		try {
			ok = switch (command) {
				case "compare" -> new ComparisonBenchmark(parseCompare(rest), System.out).run();
				case "scale-out" -> new ScaleOutBenchmark(parseScaleOut(rest), System.out).run();
				default -> new SignalLatencyBenchmark(parse(rest), System.out).run();
			};
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.err.print(USAGE);
			System.exit(2);
			return;
		}
		System.exit(ok ? 0 : 1);
	}

	private static boolean isHelp(String arg) {
		return "help".equals(arg) || "--help".equals(arg) || "-h".equals(arg);
	}

	static SignalLatencyBenchmark.Options parse(String[] args) {
		SignalLatencyBenchmark.Options o = SignalLatencyBenchmark.Options.defaults();
		List<String> variants = o.variants();
		int warmup = o.warmup();
		int signals = o.signals();
		int workflows = o.workflows();
		int threads = o.threads();
		int concurrentWarmup = o.concurrentWarmup();
		int concurrentSignals = o.concurrentSignals();
		int pool = o.poolSize();
		String synchronousCommit = o.synchronousCommit();
		String fsync = o.fsync();
		Duration bound = o.variantTimeout();
		for (String arg : args) {
			String[] option = option(arg);
			String name = option[0];
			String value = option[1];
			switch (name) {
				case "variants" -> variants = variants(value);
				case "warmup" -> warmup = number(name, value, 0);
				case "signals" -> signals = number(name, value, 1);
				case "workflows" -> workflows = number(name, value, 1);
				case "threads" -> threads = number(name, value, 1);
				case "concurrent-warmup" -> concurrentWarmup = number(name, value, 0);
				case "concurrent-signals" -> concurrentSignals = number(name, value, 1);
				case "pool" -> pool = number(name, value, 2);
				case "synchronous-commit" -> synchronousCommit = onOff(name, value);
				case "fsync" -> fsync = onOff(name, value);
				case "max-seconds" -> bound = Duration.ofSeconds(number(name, value, 1));
				default -> throw new IllegalArgumentException("Unknown option --" + name);
			}
		}
		return new SignalLatencyBenchmark.Options(variants, warmup, signals, workflows, threads, concurrentWarmup,
				concurrentSignals, pool, synchronousCommit, fsync, bound);
	}

	static ComparisonBenchmark.Options parseCompare(String[] args) {
		ComparisonBenchmark.Options o = ComparisonBenchmark.Options.defaults();
		List<String> scenarios = o.scenarios();
		int rounds = o.rounds();
		int extraRounds = o.extraRounds();
		Duration warmup = o.warmup();
		Duration jvmWarmup = o.jvmWarmup();
		Duration measure = o.measure();
		int signals = o.signals();
		int parked = o.parked();
		int replayEvents = o.replayEvents();
		int replays = o.replays();
		int woken = o.woken();
		int starts = o.starts();
		int pool = o.pool();
		Duration settle = o.settle();
		String synchronousCommit = o.synchronousCommit();
		String fsync = o.fsync();
		boolean statements = o.statements();
		for (String arg : args) {
			if ("--statements".equals(arg)) {
				statements = true;
				continue;
			}
			String[] option = option(arg);
			String name = option[0];
			String value = option[1];
			switch (name) {
				case "scenarios" -> scenarios = scenarios(value);
				case "rounds" -> rounds = number(name, value, 1);
				case "extra-rounds" -> extraRounds = number(name, value, 0);
				case "jvm-warmup-ms" -> jvmWarmup = Duration.ofMillis(number(name, value, 0));
				case "warmup-ms" -> warmup = Duration.ofMillis(number(name, value, 0));
				case "measure-ms" -> measure = Duration.ofMillis(number(name, value, 1));
				case "signals" -> signals = number(name, value, 1);
				case "parked" -> parked = number(name, value, 1);
				case "replay-events" -> replayEvents = number(name, value, 100);
				case "replays" -> replays = number(name, value, 1);
				case "woken" -> woken = number(name, value, 1);
				case "starts" -> starts = number(name, value, 1);
				case "pool" -> pool = number(name, value, 2);
				case "settle-ms" -> settle = Duration.ofMillis(number(name, value, 0));
				case "synchronous-commit" -> synchronousCommit = onOff(name, value);
				case "fsync" -> fsync = onOff(name, value);
				default -> throw new IllegalArgumentException("Unknown option --" + name);
			}
		}
		return new ComparisonBenchmark.Options(scenarios, rounds, extraRounds, jvmWarmup, warmup, measure, signals,
				parked, replayEvents, replays, woken, starts, pool, settle, synchronousCommit, fsync, o.isolate(),
				statements);
	}

	static ScaleOutBenchmark.Options parseScaleOut(String[] args) {
		ScaleOutBenchmark.Options o = ScaleOutBenchmark.Options.defaults();
		List<Integer> nodes = o.nodes();
		int clients = o.clients();
		Duration warmup = o.warmup();
		Duration measure = o.measure();
		int signals = o.signals();
		int parked = o.parked();
		Duration rest = o.rest();
		Duration settle = o.settle();
		int pool = o.pool();
		boolean clientsPerNode = o.clientsPerNode();
		for (String arg : args) {
			String[] option = option(arg);
			String name = option[0];
			String value = option[1];
			switch (name) {
				case "nodes" -> nodes = Arrays.stream(value.split(",")).map((n) -> number(name, n.trim(), 1)).toList();
				case "clients" -> clients = number(name, value, 1);
				case "warmup-ms" -> warmup = Duration.ofMillis(number(name, value, 0));
				case "measure-ms" -> measure = Duration.ofMillis(number(name, value, 1));
				case "signals" -> signals = number(name, value, 1);
				case "parked" -> parked = number(name, value, 1);
				case "rest-ms" -> rest = Duration.ofMillis(number(name, value, 1));
				case "settle-ms" -> settle = Duration.ofMillis(number(name, value, 0));
				case "pool" -> pool = number(name, value, 2);
				case "clients-per-node" -> clientsPerNode = Boolean.parseBoolean(value);
				default -> throw new IllegalArgumentException("Unknown option --" + name);
			}
		}
		return new ScaleOutBenchmark.Options(nodes, clients, warmup, measure, signals, parked, rest, settle, pool,
				clientsPerNode);
	}

	/** An argument {@code --name=value} as its name and value. */
	private static String[] option(String arg) {
		int eq = arg.indexOf('=');
		if (!arg.startsWith("--") || eq < 0) {
			throw new IllegalArgumentException("Not an option: '" + arg + "' (expected --name=value)");
		}
		return new String[] { arg.substring(2, eq), arg.substring(eq + 1) };
	}

	private static List<String> scenarios(String value) {
		List<String> scenarios = List.of(value.split(","));
		for (String scenario : scenarios) {
			if (!ComparisonBenchmark.SCENARIOS.contains(scenario)) {
				throw new IllegalArgumentException(
						"Unknown scenario '" + scenario + "' " + ComparisonBenchmark.SCENARIOS);
			}
		}
		return scenarios;
	}

	private static List<String> variants(String value) {
		List<String> variants = List.of(value.split(","));
		for (String variant : variants) {
			if (!List.of("one-node", "two-nodes", "concurrent").contains(variant)) {
				throw new IllegalArgumentException(
						"Unknown variant '" + variant + "' (one-node, two-nodes, concurrent)");
			}
		}
		return variants;
	}

	private static String onOff(String name, String value) {
		if ("on".equals(value) || "off".equals(value)) {
			return value;
		}
		throw new IllegalArgumentException("--" + name + " is on or off, not '" + value + "'");
	}

	private static int number(String name, String value, int min) {
		try {
			int n = Integer.parseInt(value);
			if (n >= min) {
				return n;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw new IllegalArgumentException("--" + name + " needs a whole number >= " + min + ", not '" + value + "'");
	}

}
