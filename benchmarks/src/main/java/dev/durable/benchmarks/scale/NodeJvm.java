package dev.durable.benchmarks.scale;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.durable.benchmarks.compare.CpuCounters;

/**
 * A {@link ScaleNode} in a JVM of its own, started with this JVM's Java and class path;
 * its CPU time read from {@code /proc} (Linux; zero elsewhere).
 */
final class NodeJvm implements AutoCloseable {

	private final Process process;

	private final String name;

	private final BlockingQueue<String> answers;

	private final UUID nodeId;

	private NodeJvm(Process process, String name, BlockingQueue<String> answers, UUID nodeId) {
		this.process = process;
		this.name = name;
		this.answers = answers;
		this.nodeId = nodeId;
	}

	/** Starts the node and waits for it to say it is ready (at most two minutes). */
	static NodeJvm start(String jdbcUrl, int poolSize, String name) {
		String java = ProcessHandle.current().info().command().orElse("java");
		List<String> command = new java.util.ArrayList<>(List.of(java, "-Xmx1g"));
		// e.g.
		// -Ddurable.scale.node-jvm-options=-XX:StartFlightRecording=filename=/tmp/,settings=profile
		String extra = System.getProperty("durable.scale.node-jvm-options", "").trim();
		if (!extra.isEmpty()) {
			command.addAll(List.of(extra.split("\\s+")));
		}
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), ScaleNode.class.getName(), jdbcUrl,
				Integer.toString(poolSize), name));
		ProcessBuilder builder = new ProcessBuilder(command);
		builder.redirectErrorStream(true);
		try {
			Process process = builder.start();
			BufferedReader out = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
			CompletableFuture<UUID> ready = new CompletableFuture<>();
			BlockingQueue<String> answers = new LinkedBlockingQueue<>();
			Path log = Files.createTempFile("durable-scale-" + name, ".log");
			Thread.ofPlatform().daemon().name("output-" + name).start(() -> drain(out, log, ready, answers));
			UUID nodeId = ready.get(2, TimeUnit.MINUTES);
			if (nodeId == null) {
				process.destroyForcibly();
				throw new IllegalStateException("node " + name + " stopped before it was ready; its output: " + log);
			}
			return new NodeJvm(process, name, answers, nodeId);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("node " + name + " did not start: " + ex, ex);
		}
	}

	/**
	 * Copies the node's output to its log file, says when it printed READY (its node id;
	 * null when it ended first), and hands its answers ({@code DONE ...}) over.
	 */
	private static void drain(BufferedReader out, Path log, CompletableFuture<UUID> ready,
			BlockingQueue<String> answers) {
		try (var writer = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
			String line;
			while ((line = out.readLine()) != null) {
				if (line.startsWith("READY ")) {
					ready.complete(UUID.fromString(line.substring(6).trim()));
				}
				if (line.startsWith("DONE")) {
					answers.add(line.substring(4).trim());
					continue;
				}
				writer.write(line);
				writer.newLine();
			}
		}
		catch (IOException ex) {
			// the node ended
		}
		ready.complete(null);
	}

	String name() {
		return this.name;
	}

	/** The engine node id the node reported when it was ready. */
	UUID nodeId() {
		return this.nodeId;
	}

	/**
	 * What the node's clients did.
	 *
	 * @param latencies in nanoseconds, of the workflows completed in the measured window
	 * @param cpu the node's CPU in that window by kind of thread, {@code kind=ms;...}
	 */
	record Ran(long[] latencies, String cpu) {
	}

	/**
	 * Runs closed-loop clients on the node (see {@link ScaleNode}) and returns what they
	 * did.
	 */
	Ran runClients(int clients, long warmupMs, long measureMs, String prefix) {
		try {
			var in = this.process.getOutputStream();
			in.write(("RUN " + clients + " " + warmupMs + " " + measureMs + " " + prefix + "\n")
				.getBytes(StandardCharsets.UTF_8));
			in.flush();
			String answer = this.answers.poll(warmupMs + measureMs + 180_000, TimeUnit.MILLISECONDS);
			if (answer == null) {
				throw new IllegalStateException("node " + this.name + " did not answer");
			}
			int bar = answer.indexOf('|');
			String micros = (bar < 0) ? answer : answer.substring(0, bar);
			long[] latencies = micros.isEmpty() ? new long[0]
					: Arrays.stream(micros.split(",")).mapToLong((each) -> Long.parseLong(each) * 1_000).toArray();
			return new Ran(latencies, (bar < 0) ? "" : answer.substring(bar + 1));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** CPU nanoseconds the node's JVM used so far. */
	long cpuNanos() {
		return CpuCounters.processNanos(this.process.pid());
	}

	/** Closes the node's input (it shuts down) and waits for it; kills it after 20 s. */
	@Override
	public void close() {
		try {
			this.process.getOutputStream().close();
			if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (IOException ex) {
			this.process.destroyForcibly();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.process.destroyForcibly();
		}
	}

}
