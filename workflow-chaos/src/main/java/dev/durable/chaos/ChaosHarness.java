package dev.durable.chaos;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The chaos harness: a PostgreSQL server and N engine JVMs of {@link ChaosApplication}, M
 * workflows driven over REST while {@link Faults} hurts the nodes and the database, then
 * {@link ChaosChecks}. Prints the report and exits 1 on any violation. With
 * {@code --network=true} (as root, with {@code ip} and {@code iptables}) each node runs
 * in a network namespace of its own ({@link ChaosNetwork}) and the plan adds the network
 * faults ({@link NetworkFaults}); where that cannot be built, the report says why and the
 * run goes on, on loopback, without them.
 *
 * <pre>./mvnw -pl workflow-chaos -am compile spring-boot:run -Dspring-boot.run.arguments="--workflows=1000 --nodes=3"</pre>
 */
public final class ChaosHarness {

	private static final int CLIENTS = 8;

	private final ChaosOptions options;

	private final ChaosReport report = new ChaosReport();

	private final Outages outages = new Outages(Duration.ofSeconds(10));

	ChaosHarness(ChaosOptions options) {
		this.options = options;
	}

	public static void main(String[] args) throws Exception {
		ChaosReport report = new ChaosHarness(ChaosOptions.parse(args)).run();
		System.out.println(report.render());
		System.exit(report.passed() ? 0 : 1);
	}

	/** The payload of a run's signal: its result must be this. */
	static String signalPayload(String workflowId) {
		return "signal-for-" + workflowId;
	}

	ChaosReport run() throws Exception {
		Files.createDirectories(this.options.logDirectory());
		// the logs of an earlier run would be read as this run's (their ERROR lines
		// outside its outages)
		try (var old = Files.newDirectoryStream(this.options.logDirectory(), "{node*.log,report.txt}")) {
			for (var file : old) {
				Files.delete(file);
			}
		}
		long started = System.nanoTime();
		this.report.line("options: " + this.options);
		ChaosNetwork network = network();
		Thread cleanup = null;
		if (network != null) {
			// a harness stopped with SIGTERM or Ctrl-C leaves no namespace behind
			// (SIGKILL: the next run removes it)
			cleanup = new Thread(network::close, "chaos-network-cleanup");
			Runtime.getRuntime().addShutdownHook(cleanup);
		}
		try (ChaosNetwork closesLast = network;
				ChaosDatabase database = (this.options.databaseUrl() != null)
						? new ChaosDatabase.External(this.options.databaseUrl(), this.options.databaseUser(),
								this.options.databasePassword())
						: PostgresServer.start(this.options.firstPort(),
								(network != null) ? ChaosNetwork.HOST : null)) {
			try (Connection connection = database.connect()) {
				ChaosChecks.createSideTable(connection);
			}
			DelayProxy proxy = null;
			if (network != null && this.options.network().contains("latency")) {
				// the last node reaches the database through it; it forwards at once
				// until the latency fault
				proxy = new DelayProxy(ChaosNetwork.HOST, PostgresServer.freePort(this.options.firstPort() + 50),
						new InetSocketAddress("127.0.0.1", ((PostgresServer) database).port));
			}
			List<NodeProcess> nodes = new ArrayList<>();
			int port = this.options.firstPort() + 1;
			for (int i = 1; i <= this.options.nodes(); i++) {
				port = PostgresServer.freePort(port);
				String name = "node" + i;
				if (network == null) {
					nodes.add(new NodeProcess(name, port++, database, this.options.logDirectory(),
							this.options.clockOffset(i)));
				}
				else {
					int databasePort = (proxy != null && i == this.options.nodes()) ? proxy.port()
							: ((PostgresServer) database).port;
					nodes.add(new NodeProcess(name, port++, database,
							"jdbc:postgresql://" + ChaosNetwork.HOST + ":" + databasePort + "/postgres",
							this.options.logDirectory(), ChaosNetwork.launcher(i), ChaosNetwork.address(i),
							this.options.clockOffset(i)));
				}
			}
			// closed after the nodes stop, so that their shutdown does not see the
			// database vanish
			try (DelayProxy closed = proxy) {
				runNodes(database, network, proxy, nodes, started);
			}
		}
		finally {
			if (cleanup != null) {
				Runtime.getRuntime().removeShutdownHook(cleanup);
			}
		}
		this.report.line("total " + ChaosChecks.since(started).toSeconds() + " s");
		Files.writeString(this.options.logDirectory().resolve("report.txt"), this.report.render(),
				StandardCharsets.UTF_8);
		return this.report;
	}

	/**
	 * Starts the nodes, installs the audit, drives the traffic and the faults, checks;
	 * stops the nodes.
	 */
	private void runNodes(ChaosDatabase database, @Nullable ChaosNetwork network, @Nullable DelayProxy proxy,
			List<NodeProcess> nodes, long started) throws Exception {
		try {
			for (NodeProcess node : nodes) {
				node.start(Duration.ofMinutes(3)); // one after another: the first one
													// migrates the schema
			}
			this.report.line("nodes up after " + ChaosChecks.since(started).toSeconds() + " s");
			try (Connection connection = database.connect()) {
				FencingAudit.install(connection);
			}
			NetworkFaults networkFaults = null;
			if (network != null) {
				List<Integer> databasePorts = new ArrayList<>(List.of(((PostgresServer) database).port));
				if (proxy != null) {
					databasePorts.add(proxy.port());
				}
				Duration length = Duration
					.ofSeconds(Math.min(30, Math.max(10, this.options.duration().toSeconds() / 6)));
				networkFaults = new NetworkFaults(network, proxy, (proxy != null) ? nodes.get(nodes.size() - 1) : null,
						databasePorts, nodes, database, this.outages, this.report, length);
			}
			drive(database, nodes, networkFaults);
		}
		finally {
			for (NodeProcess node : nodes) {
				node.stop();
			}
			this.report.line("node logs: " + this.options.logDirectory().toAbsolutePath());
			if (!this.report.passed()) {
				this.report.line("database log tail:\n" + database.logTail(30));
			}
		}
	}

	/**
	 * The chaos network when the options ask for network faults and this machine allows
	 * it; else says why and returns null (the run goes on, on loopback, without them).
	 */
	private @Nullable ChaosNetwork network() throws IOException {
		if (this.options.network().isEmpty()) {
			return null;
		}
		String unavailable = (this.options.databaseUrl() != null) ? "a database given by URL"
				: ChaosNetwork.unavailableReason();
		if (unavailable != null) {
			this.report.line("network faults SKIPPED: " + unavailable + "; the nodes and the database share loopback");
			return null;
		}
		return ChaosNetwork.create(this.options.nodes(), this.report);
	}

	private void drive(ChaosDatabase database, List<NodeProcess> nodes, @Nullable NetworkFaults network)
			throws Exception {
		ChaosChecks checks = new ChaosChecks(database, this.report);
		Faults faults = new Faults(this.options, nodes, database, this.outages, this.report, network);
		Traffic traffic = new Traffic(nodes, this.outages, this.report, this.options.seed());
		String prefix = "chaos-" + Long.toString(System.currentTimeMillis(), 36) + "-";
		Thread faulting = Thread.ofPlatform().name("faults").start(() -> {
			try {
				faults.run();
			}
			catch (Exception ex) {
				this.report.violation("the faults stopped: " + ex);
			}
		});
		Sampler sampler = new Sampler(database, checks);
		sampler.start();
		long phase = System.nanoTime();
		sendAll(traffic, prefix);
		this.report.line("all starts and signals accepted after " + ChaosChecks.since(phase).toSeconds() + " s");
		faulting.join();
		this.report.line("faults over after " + ChaosChecks.since(phase).toSeconds() + " s");
		long settle = System.nanoTime();
		int open = Integer.MAX_VALUE;
		try (Connection connection = database.connect()) {
			while (ChaosChecks.since(settle).compareTo(this.options.settle()) < 0
					&& (open = checks.open(connection)) > 0) {
				Thread.sleep(1000);
			}
		}
		sampler.stop();
		this.report.line("every run closed " + ChaosChecks.since(settle).toSeconds() + " s after the faults"
				+ ((open > 0) ? " (NOT: " + open + " still open)" : ""));
		if (open > 0) {
			this.report.violation(open + " runs still open " + this.options.settle() + " after the faults");
		}
		checks.afterRun(this.options.workflows());
		try (Connection connection = database.connect()) {
			FencingAudit.check(connection, this.report);
			if (network != null) {
				network.check(connection);
			}
		}
		checks.takeovers(faults.kills());
		checks.logs(nodes, this.outages);
	}

	/**
	 * Starts the runs at an even rate over the first 60% of the duration; a third get
	 * their signal right after the start (before their wait), the others once their timer
	 * is past; every fifth signal is sent twice with the same idempotency key.
	 */
	private void sendAll(Traffic traffic, String prefix) throws InterruptedException {
		Random random = new Random(this.options.seed());
		long spacingNanos = this.options.duration().toNanos() * 6 / 10 / this.options.workflows();
		Duration lateBy = this.options.timer().plusSeconds(3);
		DelayQueue<LateSignal> late = new DelayQueue<>();
		Semaphore inFlight = new Semaphore(CLIENTS);
		try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
			long begin = System.nanoTime();
			for (int i = 0; i < this.options.workflows(); i++) {
				long due = begin + i * spacingNanos;
				long wait = due - System.nanoTime();
				if (wait > 0) {
					TimeUnit.NANOSECONDS.sleep(wait);
				}
				String id = prefix + i;
				boolean early = random.nextInt(3) == 0;
				boolean twice = random.nextInt(5) == 0;
				inFlight.acquire();
				clients.execute(() -> {
					try {
						traffic.start(id, this.options.timer());
						if (early) {
							signal(traffic, id, twice);
						}
						else {
							late.add(new LateSignal(id, twice, System.nanoTime() + lateBy.toNanos()));
						}
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
					finally {
						inFlight.release();
					}
				});
				drainLate(late, clients, inFlight, traffic, false);
			}
			drainLate(late, clients, inFlight, traffic, true);
		}
	}

	private void drainLate(DelayQueue<LateSignal> late, ExecutorService clients, Semaphore inFlight, Traffic traffic,
			boolean all) throws InterruptedException {
		while (true) {
			LateSignal due = all ? late.poll(this.options.timer().toMillis() + 5_000, TimeUnit.MILLISECONDS)
					: late.poll();
			if (due == null) {
				if (all && !late.isEmpty()) {
					continue;
				}
				if (all && inFlight.availablePermits() < CLIENTS) {
					// starts under way may still add late signals
					Thread.sleep(100);
					continue;
				}
				return;
			}
			inFlight.acquire();
			clients.execute(() -> {
				try {
					signal(traffic, due.workflowId(), due.twice());
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				finally {
					inFlight.release();
				}
			});
		}
	}

	private static void signal(Traffic traffic, String id, boolean twice) throws InterruptedException {
		traffic.signal(id, signalPayload(id), "signal:" + id);
		if (twice) {
			traffic.signal(id, signalPayload(id), "signal:" + id);
		}
	}

	private record LateSignal(String workflowId, boolean twice, long dueNanos) implements Delayed {

		@Override
		public long getDelay(TimeUnit unit) {
			return unit.convert(this.dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
		}

		@Override
		public int compareTo(Delayed other) {
			return Long.compare(this.dueNanos, ((LateSignal) other).dueNanos);
		}

	}

	/**
	 * Samples, every second while faults go on, whether any workflow id has two open
	 * runs.
	 */
	private final class Sampler {

		private final ChaosDatabase database;

		private final ChaosChecks checks;

		private volatile boolean running = true;

		private Thread thread;

		private int samples;

		Sampler(ChaosDatabase database, ChaosChecks checks) {
			this.database = database;
			this.checks = checks;
		}

		void start() {
			this.thread = Thread.ofPlatform().name("sampler").start(() -> {
				while (this.running) {
					try (Connection connection = this.database.connect()) {
						List<String> twice = this.checks.twoOpenRuns(connection);
						this.samples++;
						twice.forEach((id) -> ChaosHarness.this.report
							.violation("two open runs of " + id + " at " + Instant.now()));
					}
					catch (Exception ex) {
						// the database restarts: the next sample
					}
					try {
						Thread.sleep(1000);
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			});
		}

		void stop() throws InterruptedException {
			this.running = false;
			this.thread.interrupt();
			this.thread.join();
			ChaosHarness.this.report.line("two-open-runs samples: " + this.samples);
		}

	}

}
