package dev.durable.benchmarks.scale;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

import dev.durable.benchmarks.compare.CpuCounters;

/**
 * This JVM's CPU time by kind of thread, read from {@code /proc/self/task} (Linux; empty
 * elsewhere): a thread's kind is its name without a trailing number, so the JIT compiler
 * threads, the GC threads, the virtual threads' carriers and the engine's own threads
 * each add up. It tells what a node spends its CPU on without a profiler: compiling and
 * collecting rather than running workflows, for one.
 */
final class ThreadCpu {

	private ThreadCpu() {
	}

	/** Milliseconds of CPU (user and system) used so far, by kind of thread. */
	static Map<String, Long> read() {
		Map<String, Long> byKind = new HashMap<>();
		try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
			for (Path task : tasks) {
				try {
					String name = Files.readString(task.resolve("comm")).trim();
					long millis = CpuCounters.cpuNanos(task.resolve("stat")) / 1_000_000;
					byKind.merge(kind(name), millis, Long::sum);
				}
				catch (IOException | RuntimeException ex) {
					// the thread ended while listed
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// not Linux
		}
		return byKind;
	}

	/**
	 * A thread's name without its trailing number and separators ("C2 CompilerThre", "GC
	 * Thread").
	 */
	static String kind(String name) {
		String kind = name.replaceAll("[#\\-_ ]*[0-9]+$", "");
		return kind.isEmpty() ? name : kind;
	}

	/**
	 * The CPU used between two readings, the largest kinds first, as {@code kind=ms;...}.
	 */
	static String used(Map<String, Long> before, Map<String, Long> after, int kinds) {
		return after.entrySet()
			.stream()
			.map((e) -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
			.filter((e) -> e.getValue() > 0)
			.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
			.limit(kinds)
			.map((e) -> e.getKey().replace(';', ' ').replace('=', ' ') + "=" + e.getValue())
			.collect(Collectors.joining(";"));
	}

}
