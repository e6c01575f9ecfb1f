package dev.durable.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * Entry point of the load harness: {@code BenchmarkMain <benchmark> [--option=value ...]}.
 * <p>
 * Benchmarks: {@code signal-latency} (see {@link SignalLatencyBenchmark}). A side-by-side run
 * against a peer engine comes later.
 */
public final class BenchmarkMain {

	private static final String USAGE = """
			usage: BenchmarkMain signal-latency [--option=value ...]

			  ./mvnw -q -pl benchmarks -am compile spring-boot:run -Dspring-boot.run.arguments=signal-latency

			Signal-to-handler latency of the durable workflow engine on an embedded PostgreSQL 17
			started by the harness (a temporary data directory, deleted at the end).

			options (defaults in brackets):
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
			""";

	private BenchmarkMain() {
	}

	public static void main(String[] args) {
		if (args.length == 0 || !"signal-latency".equals(args[0])
				|| Arrays.stream(args).anyMatch(BenchmarkMain::isHelp)) {
			System.out.print(USAGE);
			System.exit((args.length == 0 || Arrays.stream(args).anyMatch(BenchmarkMain::isHelp)) ? 0 : 2);
			return;
		}
		SignalLatencyBenchmark.Options options;
		try {
			options = parse(Arrays.copyOfRange(args, 1, args.length));
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.err.print(USAGE);
			System.exit(2);
			return;
		}
		boolean ok = new SignalLatencyBenchmark(options, System.out).run();
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
			int eq = arg.indexOf('=');
			if (!arg.startsWith("--") || eq < 0) {
				throw new IllegalArgumentException("Not an option: '" + arg + "' (expected --name=value)");
			}
			String name = arg.substring(2, eq);
			String value = arg.substring(eq + 1);
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

	private static List<String> variants(String value) {
		List<String> variants = List.of(value.split(","));
		for (String variant : variants) {
			if (!List.of("one-node", "two-nodes", "concurrent").contains(variant)) {
				throw new IllegalArgumentException("Unknown variant '" + variant + "' (one-node, two-nodes, concurrent)");
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
