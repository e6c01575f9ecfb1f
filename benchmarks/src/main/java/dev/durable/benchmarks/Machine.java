package dev.durable.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the benchmarks print about the machine they ran on. */
public final class Machine {

	private Machine() {
	}

	/** The 1, 5 and 15 minute load averages (Linux), or "unknown". */
	public static String loadAverage() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
			return fields[0] + " " + fields[1] + " " + fields[2];
		}
		catch (IOException | RuntimeException ex) {
			return "unknown";
		}
	}

	/** The CPU model (Linux), or "unknown CPU". */
	public static String cpuModel() {
		try {
			return Files.readAllLines(Path.of("/proc/cpuinfo"))
				.stream()
				.filter((line) -> line.startsWith("model name"))
				.map((line) -> line.substring(line.indexOf(':') + 1).trim())
				.findFirst()
				.orElse("unknown CPU");
		}
		catch (IOException | RuntimeException ex) {
			return "unknown CPU";
		}
	}

}
