package dev.durable.benchmarks.compare;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of this JVM and of the benchmark's PostgreSQL server (its postmaster, its live
 * processes, and the processes that already exited, which the kernel adds to the
 * postmaster's children times), read from {@code /proc} (Linux). On two cores the CPU
 * each workflow costs bounds the throughput: at most 2,000 ms of CPU per second of wall
 * time, for both together.
 */
public final class CpuCounters {

	private static final double TICK_NANOS = 1e9 / 100; // USER_HZ, 100 on Linux

	private final long postmasterPid;

	public CpuCounters(long postmasterPid) {
		this.postmasterPid = postmasterPid;
	}

	/** Available on Linux with a known postmaster; otherwise the readings are zero. */
	boolean available() {
		return this.postmasterPid > 0 && Files.isReadable(Path.of("/proc", Long.toString(this.postmasterPid), "stat"));
	}

	/**
	 * CPU nanoseconds (user and system) a process has used so far; 0 when it cannot be
	 * read.
	 */
	public static long processNanos(long pid) {
		return cpuNanos(Path.of("/proc", Long.toString(pid), "stat"));
	}

	/**
	 * CPU nanoseconds (user and system) in a {@code stat} file of {@code /proc}: a
	 * process's, or a thread's ({@code /proc/self/task/<tid>/stat}); 0 when it cannot be
	 * read.
	 */
	public static long cpuNanos(Path statFile) {
		long[] fields = stat(statFile);
		return (fields != null) ? (long) ((fields[1] + fields[2]) * TICK_NANOS) : 0;
	}

	/**
	 * The process id of the postmaster, the parent of the backend with the given pid; 0
	 * if unknown.
	 */
	public static long parentOf(long pid) {
		long[] fields = stat(pid);
		return (fields != null) ? fields[0] : 0;
	}

	/** CPU nanoseconds used so far by this JVM and by the server. */
	public Reading read() {
		long jvm = 0;
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			jvm = os.getProcessCpuTime();
		}
		if (!available()) {
			return new Reading(jvm, 0);
		}
		long ticks = 0;
		long[] postmaster = stat(this.postmasterPid);
		if (postmaster != null) {
			ticks += postmaster[1] + postmaster[2] + postmaster[3] + postmaster[4];
		}
		try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
			for (Path process : processes) {
				long[] fields = stat(Long.parseLong(process.getFileName().toString()));
				if (fields != null && fields[0] == this.postmasterPid) {
					ticks += fields[1] + fields[2];
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// a process that exited while listed: its time went to the postmaster's
			// children times
		}
		return new Reading(jvm, (long) (ticks * TICK_NANOS));
	}

	/** ppid, utime, stime, cutime, cstime of a process, or null. */
	private static long[] stat(long pid) {
		return stat(Path.of("/proc", Long.toString(pid), "stat"));
	}

	private static long[] stat(Path file) {
		try {
			String stat = Files.readString(file);
			// the command name (field 2) may hold spaces: the fields after it follow the
			// last ')'
			String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			// f[0] is field 3 (state): ppid is field 4, utime 14, stime 15, cutime 16,
			// cstime 17
			return new long[] { Long.parseLong(f[1]), Long.parseLong(f[11]), Long.parseLong(f[12]),
					Long.parseLong(f[13]), Long.parseLong(f[14]) };
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * CPU time used up to one moment.
	 *
	 * @param jvmNanos this JVM (both engines, the clients and the harness)
	 * @param postgresNanos the PostgreSQL server
	 */
	public record Reading(long jvmNanos, long postgresNanos) {

		public Reading minus(Reading earlier) {
			return new Reading(this.jvmNanos - earlier.jvmNanos, this.postgresNanos - earlier.postgresNanos);
		}

	}

}
