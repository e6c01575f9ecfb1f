package dev.durable.chaos;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;

/**
 * Applies the faults of a chaos run, one after another on a plan drawn from the seed:
 * SIGKILL of a random node (started again 1-3 s later), database restarts ({@code fast},
 * then {@code immediate}), one node's connections terminated as they appear, and a node
 * paused past {@code dead-after}; with a chaos network, the network faults of
 * {@link NetworkFaults}. Never takes the last serving node away, so the run always makes
 * progress.
 */
final class Faults {

	/** A SIGKILL: when, and which node. */
	record Kill(Instant at, String node) {
	}

	private record Planned(long atMillis, String kind) {
	}

	private final ChaosOptions options;

	private final List<NodeProcess> nodes;

	private final ChaosDatabase database;

	private final Outages outages;

	private final ChaosReport report;

	private final Random random;

	private final List<Kill> kills = new CopyOnWriteArrayList<>();

	private final List<Thread> restarts = new CopyOnWriteArrayList<>();

	private final @Nullable NetworkFaults network;

	Faults(ChaosOptions options, List<NodeProcess> nodes, ChaosDatabase database, Outages outages, ChaosReport report) {
		this(options, nodes, database, outages, report, null);
	}

	/**
	 * With {@code network} (null: on loopback), the plan holds the options' network
	 * faults too.
	 */
	Faults(ChaosOptions options, List<NodeProcess> nodes, ChaosDatabase database, Outages outages, ChaosReport report,
			@Nullable NetworkFaults network) {
		this.network = network;
		this.options = options;
		this.nodes = nodes;
		this.database = database;
		this.outages = outages;
		this.report = report;
		this.random = new Random(options.seed());
	}

	List<Kill> kills() {
		return List.copyOf(this.kills);
	}

	/** Runs the plan until the duration has passed, then brings every node back. */
	void run() throws Exception {
		long start = System.currentTimeMillis();
		for (Planned fault : plan()) {
			long wait = start + fault.atMillis() - System.currentTimeMillis();
			if (wait > 0) {
				Thread.sleep(wait);
			}
			apply(fault.kind());
		}
		long left = start + this.options.duration().toMillis() - System.currentTimeMillis();
		if (left > 0) {
			Thread.sleep(left);
		}
		for (Thread restart : this.restarts) {
			restart.join();
		}
	}

	private List<Planned> plan() {
		long duration = this.options.duration().toMillis();
		List<Planned> plan = new ArrayList<>();
		if (this.options.kills() < 0) {
			for (long at = 10_000 + this.random.nextInt(10_000); at < duration - 5_000; at += 10_000
					+ this.random.nextInt(10_000)) {
				plan.add(new Planned(at, "kill"));
			}
		}
		else {
			for (int i = 1; i <= this.options.kills(); i++) {
				plan.add(new Planned(duration * i / (this.options.kills() + 1) + this.random.nextInt(2_000), "kill"));
			}
		}
		for (int i = 1; i <= this.options.databaseRestarts(); i++) {
			// between the kills, not on them
			plan.add(new Planned(duration * (2L * i - 1) / (2L * this.options.databaseRestarts() + 1) + 4_000,
					(i % 2 == 1) ? "restart-fast" : "restart-immediate"));
		}
		if (!this.options.cut().isZero()) {
			plan.add(new Planned(duration * 45 / 100, "cut"));
		}
		if (this.options.pause()) {
			plan.add(new Planned(duration * 70 / 100, "pause"));
		}
		if (this.network != null) {
			// each at its own share of the duration, in the order of NETWORK_FAULTS
			long[] percent = { 12, 28, 40, 60, 80 };
			for (int i = 0; i < ChaosOptions.NETWORK_FAULTS.size(); i++) {
				String fault = ChaosOptions.NETWORK_FAULTS.get(i);
				if (this.options.network().contains(fault)) {
					plan.add(new Planned(duration * percent[i] / 100, "network-" + fault));
				}
			}
		}
		plan.sort(Comparator.comparingLong(Planned::atMillis));
		return plan;
	}

	private void apply(String kind) throws Exception {
		switch (kind) {
			case "kill" -> kill();
			case "restart-fast" -> restartDatabase("fast");
			case "restart-immediate" -> restartDatabase("immediate");
			case "cut" -> cut();
			case "pause" -> pause();
			case "network-partition", "network-one-way", "network-loss" -> {
				NodeProcess node = victim();
				if (node == null) {
					this.report.line(kind + " skipped: fewer than two nodes serving");
				}
				else if (kind.equals("network-loss")) {
					this.network.loss(node);
				}
				else {
					boolean oneWay = kind.equals("network-one-way");
					this.network.partitionFromDatabase(node, oneWay, Duration.ofSeconds(oneWay ? 4 : 6));
				}
			}
			case "network-nodes" -> this.network.partitionNodes();
			case "network-latency" -> this.network.latency();
			default -> throw new IllegalStateException(kind);
		}
	}

	private NodeProcess victim() {
		List<NodeProcess> serving = this.nodes.stream().filter(NodeProcess::isServing).toList();
		return (serving.size() < 2) ? null : serving.get(this.random.nextInt(serving.size()));
	}

	private void kill() throws InterruptedException {
		NodeProcess node = victim();
		if (node == null) {
			this.report.line("kill skipped: fewer than two nodes serving");
			return;
		}
		Instant at = Instant.now();
		node.kill();
		this.kills.add(new Kill(at, node.name));
		this.report.count("faults: SIGKILL");
		long delay = 1_000 + this.random.nextInt(2_000);
		Thread restart = Thread.ofPlatform().name("restart-" + node.name).start(() -> {
			try {
				Thread.sleep(delay);
				node.start(Duration.ofMinutes(3));
			}
			catch (Exception ex) {
				this.report.violation("node " + node.name + " did not start again: " + ex.getMessage());
			}
		});
		this.restarts.add(restart);
		restart.join(); // one fault at a time: the next victim is drawn among nodes that
						// serve
	}

	private void restartDatabase(String mode) throws Exception {
		if (!this.database.canRestart()) {
			this.report.line("database restart -m " + mode + " skipped: a database given by URL");
			return;
		}
		Outages.Window window = this.outages.begin(null, "database restart -m " + mode);
		long started = System.nanoTime();
		try {
			this.database.restart(mode);
		}
		finally {
			this.outages.end(window);
		}
		this.report.count("faults: database restart -m " + mode);
		this.report
			.line(String.format("database restart -m %s took %d ms", mode, (System.nanoTime() - started) / 1_000_000));
	}

	private void cut() throws Exception {
		NodeProcess node = victim();
		if (node == null) {
			return;
		}
		Outages.Window window = this.outages.begin(node.name, "connections cut");
		int terminated = 0;
		long end = System.nanoTime() + this.options.cut().toNanos();
		try (Connection connection = this.database.connect(); Statement statement = connection.createStatement()) {
			while (System.nanoTime() < end) {
				try (var rows = statement.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
						+ " WHERE application_name = 'chaos-" + node.name + "'")) {
					rows.next();
					terminated += rows.getInt(1);
				}
				Thread.sleep(200);
			}
		}
		finally {
			this.outages.end(window);
		}
		this.report.count("faults: connections cut");
		this.report.line("connections of " + node.name + " cut for " + this.options.cut().toSeconds() + " s: "
				+ terminated + " backends terminated");
	}

	private void pause() throws Exception {
		NodeProcess node = victim();
		if (node == null) {
			return;
		}
		Duration paused = ChaosOptions.DEAD_AFTER.plusSeconds(4);
		node.pause();
		try {
			Thread.sleep(paused.toMillis());
		}
		finally {
			node.resume();
		}
		this.report.count("faults: SIGSTOP past dead-after");
		this.report.line("node " + node.name + " paused for " + paused.toSeconds() + " s (dead-after "
				+ ChaosOptions.DEAD_AFTER.toSeconds() + " s), then resumed");
	}

}
