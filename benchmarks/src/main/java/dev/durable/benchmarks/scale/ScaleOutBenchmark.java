package dev.durable.benchmarks.scale;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.benchmarks.EmbeddedDatabase;
import dev.durable.benchmarks.LatencyStats;
import dev.durable.benchmarks.compare.CpuCounters;
import dev.durable.benchmarks.compare.DurableBenchWorkflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * Durable on 1, 2 and 3 engine nodes, each a JVM of its own, on one PostgreSQL: the
 * 3-step throughput and p50 of a fixed number of clients shared out over the nodes (each
 * node runs the workflows its clients start), the latency of a signal sent from another
 * node (a client-only node in this JVM, {@code runWorkflows(false)}) to a parked run,
 * and, on the most nodes, the CPU the nodes and the server spend at rest (polls,
 * heartbeats) with no open run and with many parked runs.
 */
public final class ScaleOutBenchmark {

	/**
	 * @param nodes the node counts to measure, in order
	 * @param clients client threads of the throughput measurement
	 * @param warmup unmeasured time before it
	 * @param measure its measured time
	 * @param signals runs parked and then signalled one after another, per node count
	 * @param parked runs parked for the at-rest measurement (on the most nodes)
	 * @param rest each at-rest window
	 * @param settle the wait before each at-rest window (the work of parking settles:
	 * evictions of idle cached runs, autovacuum)
	 * @param pool each node's pool size
	 * @param clientsPerNode whether each node gets {@code clients} clients (the load
	 * grows with the nodes) rather than a share of them (the same load spread over more
	 * nodes)
	 */
	public record Options(List<Integer> nodes, int clients, Duration warmup, Duration measure, int signals, int parked,
			Duration rest, Duration settle, int pool, boolean clientsPerNode) {

		/** The clients shared out over the nodes. */
		public Options(List<Integer> nodes, int clients, Duration warmup, Duration measure, int signals, int parked,
				Duration rest, Duration settle, int pool) {
			this(nodes, clients, warmup, measure, signals, parked, rest, settle, pool, false);
		}

		public static Options defaults() {
			return new Options(List.of(1, 2, 3), 16, Duration.ofSeconds(10), Duration.ofSeconds(8), 200, 20_000,
					Duration.ofSeconds(10), Duration.ofSeconds(30), 2 * Runtime.getRuntime().availableProcessors() + 4);
		}

	}

	/** One node count's figures. */
	record Row(int nodes, int workflows, double perSecond, LatencyStats latency, LatencyStats signal) {
	}

	/** CPU at rest, in milliseconds per second of wall time. */
	record Rest(int openRuns, double nodesMsPerSecond, double postgresMsPerSecond) {
	}

	private final Options options;

	private final PrintStream out;

	private final List<Row> rows = new ArrayList<>();

	private final List<Rest> rests = new ArrayList<>();

	public ScaleOutBenchmark(Options options, PrintStream out) {
		this.options = options;
		this.out = out;
	}

	public boolean run() {
		this.out.printf("scale-out: %s nodes, %d clients, %d signals, %d parked runs at rest%n", this.options.nodes(),
				this.options.clients(), this.options.signals(), this.options.parked());
		try (EmbeddedDatabase database = EmbeddedDatabase.start("on", "on")) {
			int most = this.options.nodes().stream().mapToInt(Integer::intValue).max().orElse(1);
			for (int count : this.options.nodes()) {
				String name = "bench_scale_" + count;
				database.createDatabase(name);
				measure(database, name, count, count == most);
			}
		}
		report();
		return !this.rows.isEmpty();
	}

	private void measure(EmbeddedDatabase database, String name, int count, boolean atRest) {
		List<NodeJvm> nodes = new ArrayList<>();
		try (HikariDataSource clientPool = database.pool(name, "scale-client", this.options.clients() + 4)) {
			for (int i = 1; i <= count; i++) {
				// one after another: the first one creates the schema
				nodes.add(NodeJvm.start(database.jdbcUrl(name), this.options.pool(), "node" + i));
			}
			warmEachAlone(nodes, count);
			WorkflowEngine client = WorkflowEngine.builder()
				.dataSource(clientPool)
				.runWorkflows(false)
				.register(DurableBenchWorkflows.StepsWorkflow.class, DurableBenchWorkflows.WaitWorkflow.class)
				.shutdownTimeout(Duration.ofSeconds(5))
				.build()
				.start();
			try {
				JdbcTemplate jdbc = new JdbcTemplate(clientPool);
				Long backend = jdbc.queryForObject("SELECT pg_backend_pid()", Long.class);
				CpuCounters server = new CpuCounters((backend != null) ? CpuCounters.parentOf(backend) : 0);
				String prefix = "steps-" + count + "-";
				ThroughputProbe probe = new ThroughputProbe(clientPool, nodes, server, prefix);
				long phaseStarted = System.nanoTime();
				Throughput throughput = throughput(nodes, count);
				double phaseSeconds = (System.nanoTime() - phaseStarted) / 1e9;
				Integer completed = jdbc
					.queryForObject("SELECT count(*) FROM durable.workflow_run WHERE workflow_id LIKE ?"
							+ " AND status = 'COMPLETED'", Integer.class, prefix + "%");
				this.out.printf("  %d node(s), the throughput phase: %s%n    %s%n", count,
						ThroughputProbe.placement(jdbc, nodes, prefix),
						probe.finish((completed != null) ? completed : 0, phaseSeconds));
				LatencyStats signal = signals(client, new JdbcTemplate(clientPool), count);
				Row row = new Row(count, throughput.workflows(), throughput.perSecond(), throughput.latency(), signal);
				this.rows.add(row);
				this.out.printf(
						"  %d node(s): %,d workflows, %.0f/s, p50 %s ms, p99 %s ms; signal p50 %s ms, p99 %s ms%n",
						count, row.workflows(), row.perSecond(), LatencyStats.millis(row.latency().p50()),
						LatencyStats.millis(row.latency().p99()), LatencyStats.millis(signal.p50()),
						LatencyStats.millis(signal.p99()));
				if (atRest) {
					atRest(client, new JdbcTemplate(clientPool), nodes);
				}
			}
			finally {
				client.shutdown();
			}
		}
		finally {
			nodes.forEach(NodeJvm::close);
		}
	}

	record Throughput(int workflows, double perSecond, LatencyStats latency) {
	}

	/**
	 * Runs all the clients on each node in turn, alone, for the warm-up time. A node JVM
	 * starts cold: its JIT compilers need CPU and enough calls to compile the engine's
	 * hot paths. Warmed together, three cold JVMs share the two cores and each runs a
	 * third of the workflows, so after the common warm-up they were far from compiled
	 * (the first measurement of this benchmark compared a warm single node with three
	 * cold ones). Alone, each node gets what the single node gets; the common warm-up
	 * then follows as before.
	 */
	private void warmEachAlone(List<NodeJvm> nodes, int count) {
		for (NodeJvm node : nodes) {
			node.runClients(this.options.clients(), this.options.warmup().toMillis(), 0,
					"warm-" + count + "-" + node.name() + "-");
		}
	}

	/**
	 * The clients, shared out over the nodes, each node running its share as closed loops
	 * (start a 3-step workflow, wait for its result, start the next), as an application's
	 * nodes behind a load balancer would: a run started on a node runs there. The
	 * workflows that complete in the measured window, over its length.
	 */
	private Throughput throughput(List<NodeJvm> nodes, int count) {
		List<long[]> perNode = new java.util.concurrent.CopyOnWriteArrayList<>();
		java.util.Map<String, String> cpu = new java.util.concurrent.ConcurrentSkipListMap<>();
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < nodes.size(); i++) {
			NodeJvm node = nodes.get(i);
			int share = this.options.clientsPerNode() ? this.options.clients()
					: this.options.clients() / nodes.size() + ((i < this.options.clients() % nodes.size()) ? 1 : 0);
			String prefix = "steps-" + count + "-" + node.name() + "-";
			threads.add(Thread.ofPlatform().start(() -> {
				NodeJvm.Ran ran = node.runClients(share, this.options.warmup().toMillis(),
						this.options.measure().toMillis(), prefix);
				perNode.add(ran.latencies());
				cpu.put(node.name(), ran.cpu());
			}));
		}
		join(threads);
		cpu.forEach((name, used) -> this.out.printf("    %s's CPU in the measured window, ms by kind of thread: %s%n",
				name, used.replace(";", ", ")));
		long[] all = perNode.stream().flatMapToLong(java.util.Arrays::stream).toArray();
		return new Throughput(all.length, all.length / (this.options.measure().toNanos() / 1e9), LatencyStats.of(all));
	}

	/**
	 * Parks runs on the nodes from this client-only node, then signals them one after
	 * another; the latency of each is from just before its signal was sent to the time of
	 * the workflow task, on the node that owns the run, that received it and closed the
	 * run ({@code closed_at}).
	 */
	private LatencyStats signals(WorkflowEngine client, JdbcTemplate jdbc, int count) {
		String prefix = "wait-" + count + "-";
		List<WorkflowHandle<String>> handles = park(client, jdbc, prefix, this.options.signals());
		java.util.Map<String, Instant> sent = new java.util.HashMap<>();
		for (WorkflowHandle<String> handle : handles) {
			sent.put(handle.workflowId(), Instant.now());
			handle.signal("go", "now");
		}
		long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
		while (jdbc.queryForObject(
				"SELECT count(*) FROM durable.workflow_run WHERE workflow_id LIKE ? AND" + " status = 'RUNNING'",
				Integer.class, prefix + "%") > 0) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("signalled runs still open after 2 minutes");
			}
			sleep(100);
		}
		long[] latencies = jdbc
			.query("SELECT workflow_id, closed_at FROM durable.workflow_run WHERE workflow_id LIKE ?",
					(row, i) -> Duration.between(sent.get(row.getString(1)), row.getTimestamp(2).toInstant()).toNanos(),
					prefix + "%")
			.stream()
			.mapToLong(Long::longValue)
			.toArray();
		return LatencyStats.of(latencies);
	}

	/**
	 * Starts waiting runs from 16 threads and returns once every one waits (its first
	 * task committed).
	 */
	private List<WorkflowHandle<String>> park(WorkflowEngine client, JdbcTemplate jdbc, String prefix, int runs) {
		List<WorkflowHandle<String>> handles = new ArrayList<>(runs);
		for (int i = 0; i < runs; i++) {
			handles.add(null);
		}
		AtomicInteger next = new AtomicInteger();
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < 16; t++) {
			threads.add(Thread.ofPlatform().start(() -> {
				for (int i = next.getAndIncrement(); i < runs; i = next.getAndIncrement()) {
					handles.set(i, client.client()
						.start(DurableBenchWorkflows.WaitWorkflow::run, StartOptions.withId(prefix + i)));
				}
			}));
		}
		join(threads);
		long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
		while (parked(jdbc, prefix) < runs) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("the runs did not all park within 10 minutes");
			}
			sleep(200);
		}
		return handles;
	}

	private static int parked(JdbcTemplate jdbc, String prefix) {
		return jdbc.queryForObject("SELECT count(*) FROM durable.workflow_run WHERE workflow_id LIKE ? AND"
				+ " history_seq >= 1 AND status = 'RUNNING'", Integer.class, prefix + "%");
	}

	/**
	 * CPU of the nodes and the server at rest: with no open run, then with the parked
	 * runs.
	 */
	private void atRest(WorkflowEngine client, JdbcTemplate jdbc, List<NodeJvm> nodes) {
		Long backend = jdbc.queryForObject("SELECT pg_backend_pid()", Long.class);
		CpuCounters server = new CpuCounters((backend != null) ? CpuCounters.parentOf(backend) : 0);
		this.rests.add(rest(0, server, nodes));
		park(client, jdbc, "parked-", this.options.parked());
		this.rests.add(rest(this.options.parked(), server, nodes));
		for (Rest rest : this.rests) {
			this.out.printf("  at rest on %d nodes with %,d open runs: nodes %.1f ms CPU/s, PostgreSQL %.1f ms CPU/s%n",
					nodes.size(), rest.openRuns(), rest.nodesMsPerSecond(), rest.postgresMsPerSecond());
		}
	}

	private Rest rest(int openRuns, CpuCounters server, List<NodeJvm> nodes) {
		sleep(this.options.settle().toMillis());
		long nodesBefore = nodes.stream().mapToLong(NodeJvm::cpuNanos).sum();
		long serverBefore = server.read().postgresNanos();
		long started = System.nanoTime();
		sleep(this.options.rest().toMillis());
		double seconds = (System.nanoTime() - started) / 1e9;
		long nodesUsed = nodes.stream().mapToLong(NodeJvm::cpuNanos).sum() - nodesBefore;
		long serverUsed = server.read().postgresNanos() - serverBefore;
		return new Rest(openRuns, nodesUsed / 1e6 / seconds, serverUsed / 1e6 / seconds);
	}

	private void report() {
		Row one = this.rows.stream().filter((row) -> row.nodes() == 1).findFirst().orElse(null);
		this.out.println();
		this.out.println("| nodes | workflows/s | vs 1 node | p50 ms | p99 ms | signal p50 ms | signal p99 ms |");
		this.out.println("|---:|---:|---:|---:|---:|---:|---:|");
		for (Row row : this.rows) {
			this.out.printf("| %d | %.0f | %s | %s | %s | %s | %s |%n", row.nodes(), row.perSecond(),
					(one != null && one.perSecond() > 0) ? String.format("%.2fx", row.perSecond() / one.perSecond())
							: "",
					LatencyStats.millis(row.latency().p50()), LatencyStats.millis(row.latency().p99()),
					LatencyStats.millis(row.signal().p50()), LatencyStats.millis(row.signal().p99()));
		}
		this.out.println();
		this.out.println("| open runs at rest | nodes' CPU ms/s (all nodes) | PostgreSQL CPU ms/s |");
		this.out.println("|---:|---:|---:|");
		for (Rest rest : this.rests) {
			this.out.printf("| %,d | %.1f | %.1f |%n", rest.openRuns(), rest.nodesMsPerSecond(),
					rest.postgresMsPerSecond());
		}
	}

	List<Row> rows() {
		return this.rows;
	}

	List<Rest> rests() {
		return this.rests;
	}

	private static void join(List<Thread> threads) {
		for (Thread thread : threads) {
			try {
				thread.join();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
