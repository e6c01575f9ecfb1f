package dev.durable.benchmarks.scale;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import dev.durable.benchmarks.compare.DurableBenchWorkflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * One engine node of the scale-out benchmark, in a JVM of its own: the bench workflows
 * and their no-op activity, the engine's default settings, a pool of the given size. It
 * prints {@code READY} and its node id once started, then runs what its standard input
 * asks, one line each: {@code RUN clients warmupMs measureMs prefix} runs closed-loop
 * clients on this node (each starts a 3-step workflow, which runs here, and waits for its
 * result) and answers {@code DONE} with the latencies in microseconds of the workflows
 * that completed in the measured window and, after a {@code |}, the CPU the JVM used in
 * that window by kind of thread. It stops when its parent closes its standard input.
 */
public final class ScaleNode {

	private ScaleNode() {
	}

	/**
	 * @param args the JDBC URL, the pool size, the node's name (its connections'
	 * application name)
	 */
	public static void main(String[] args) throws Exception {
		HikariConfig config = new HikariConfig();
		config.setPoolName(args[2]);
		config.setJdbcUrl(args[0] + "&ApplicationName=" + args[2]);
		config.setUsername("postgres");
		config.setMaximumPoolSize(Integer.parseInt(args[1]));
		config.setMinimumIdle(Integer.parseInt(args[1]));
		try (HikariDataSource pool = new HikariDataSource(config)) {
			WorkflowEngine engine = WorkflowEngine.builder()
				.dataSource(pool)
				.register(DurableBenchWorkflows.StepsWorkflow.class, DurableBenchWorkflows.WaitWorkflow.class)
				.registerActivities(new DurableBenchWorkflows.NoopSteps())
				.shutdownTimeout(Duration.ofSeconds(5))
				.build()
				.start();
			System.out.println("READY " + engine.nodeId());
			System.out.flush();
			BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			String line;
			while ((line = in.readLine()) != null) {
				String[] command = line.trim().split(" ");
				if (command[0].equals("RUN")) {
					String[] cpu = new String[1];
					List<Long> latencies = run(engine, Integer.parseInt(command[1]), Long.parseLong(command[2]),
							Long.parseLong(command[3]), command[4], cpu);
					System.out.println("DONE "
							+ latencies.stream().map(String::valueOf).collect(Collectors.joining(",")) + "|" + cpu[0]);
					System.out.flush();
				}
			}
			engine.shutdown();
		}
	}

	/**
	 * @param cpu gets the CPU of this JVM in the measured window, by kind of thread (see
	 * {@link ThreadCpu})
	 */
	private static List<Long> run(WorkflowEngine engine, int clients, long warmupMs, long measureMs, String prefix,
			String[] cpu) throws InterruptedException {
		AtomicInteger sequence = new AtomicInteger();
		ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
		long warmupEnd = System.nanoTime() + warmupMs * 1_000_000;
		long end = warmupEnd + measureMs * 1_000_000;
		List<Thread> threads = new ArrayList<>();
		for (int c = 0; c < clients; c++) {
			threads.add(Thread.ofPlatform().name("client-" + c).start(() -> {
				for (long started = System.nanoTime(); started < end; started = System.nanoTime()) {
					engine.client()
						.start(DurableBenchWorkflows.StepsWorkflow::run, 3,
								StartOptions.withId(prefix + sequence.incrementAndGet()))
						.result(Duration.ofMinutes(2));
					long finished = System.nanoTime();
					// a workflow counts when it completes in the measured window
					if (finished >= warmupEnd && finished <= end) {
						latencies.add((finished - started) / 1_000);
					}
				}
			}));
		}
		Thread.sleep(Math.max(0, (warmupEnd - System.nanoTime()) / 1_000_000));
		java.util.Map<String, Long> before = ThreadCpu.read();
		Thread.sleep(Math.max(0, (end - System.nanoTime()) / 1_000_000));
		cpu[0] = ThreadCpu.used(before, ThreadCpu.read(), 8);
		for (Thread thread : threads) {
			thread.join();
		}
		return new ArrayList<>(latencies);
	}

}
