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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.durable.benchmarks.compare.CpuCounters;

/**
 * A {@link ScaleNode} in a JVM of its own, started with this JVM's Java and class path; its CPU
 * time read from {@code /proc} (Linux; zero elsewhere).
 */
final class NodeJvm implements AutoCloseable {

	private final Process process;

	private final String name;

	private final BlockingQueue<String> answers;

	private NodeJvm(Process process, String name, BlockingQueue<String> answers) {
		this.process = process;
		this.name = name;
		this.answers = answers;
	}

	/** Starts the node and waits for it to say it is ready (at most two minutes). */
	static NodeJvm start(String jdbcUrl, int poolSize, String name) {
		String java = ProcessHandle.current().info().command().orElse("java");
		ProcessBuilder builder = new ProcessBuilder(List.of(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
				ScaleNode.class.getName(), jdbcUrl, Integer.toString(poolSize), name));
		builder.redirectErrorStream(true);
		try {
			Process process = builder.start();
			BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
			CompletableFuture<Boolean> ready = new CompletableFuture<>();
			BlockingQueue<String> answers = new LinkedBlockingQueue<>();
			Path log = Files.createTempFile("durable-scale-" + name, ".log");
			Thread.ofPlatform().daemon().name("output-" + name).start(() -> drain(out, log, ready, answers));
			if (!ready.get(2, TimeUnit.MINUTES)) {
				process.destroyForcibly();
				throw new IllegalStateException("node " + name + " stopped before it was ready; its output: " + log);
			}
			return new NodeJvm(process, name, answers);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("node " + name + " did not start: " + ex, ex);
		}
	}

	/**
	 * Copies the node's output to its log file, says when it printed READY (or ended), and hands
	 * its answers ({@code DONE ...}) over.
	 */
	private static void drain(BufferedReader out, Path log, CompletableFuture<Boolean> ready,
			BlockingQueue<String> answers) {
		try (var writer = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
			String line;
			while ((line = out.readLine()) != null) {
				if (line.equals("READY")) {
					ready.complete(true);
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
		ready.complete(false);
	}

	String name() {
		return this.name;
	}

	/**
	 * Runs closed-loop clients on the node (see {@link ScaleNode}) and returns the latencies in
	 * nanoseconds of the workflows completed in the measured window.
	 */
	long[] runClients(int clients, long warmupMs, long measureMs, String prefix) {
		try {
			var in = this.process.getOutputStream();
			in.write(("RUN " + clients + " " + warmupMs + " " + measureMs + " " + prefix + "\n")
				.getBytes(StandardCharsets.UTF_8));
			in.flush();
			String answer = this.answers.poll(warmupMs + measureMs + 180_000, TimeUnit.MILLISECONDS);
			if (answer == null) {
				throw new IllegalStateException("node " + this.name + " did not answer");
			}
			return answer.isEmpty() ? new long[0]
					: Arrays.stream(answer.split(",")).mapToLong((micros) -> Long.parseLong(micros) * 1_000).toArray();
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
