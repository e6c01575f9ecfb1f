package dev.durable.workflow.fault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.crash.CrashWorker;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * Kills a worker JVM with SIGKILL in the middle of 200 workflows of 5 sequential
 * activities, lets a second worker JVM take over, and requires every workflow to complete
 * exactly once with the right result, with no activity lost and only the activities cut
 * short by the kill run again, once, on the second worker.
 *
 * <p>
 * The workers' output is in {@code target/crash-recovery-it/<schema>/worker-N.log}.
 */
class CrashRecoveryIT {

	private static final int KILL_AFTER_ACTIVITIES = 300;

	private static final int SIGKILL_EXIT = 128 + 9;

	private final JdbcTemplate jdbc = TestDatabase.jdbc();

	private final String schema = TestDatabase.newSchema();

	private final String logTable = CrashWorker.logTable(this.schema);

	private final long began = System.nanoTime();

	/** One logged activity execution. */
	private record Execution(String workflowId, int step, long pid, int attempt, Instant startedAt) {
	}

	@Test
	@Timeout(value = 4, unit = TimeUnit.MINUTES)
	void everyWorkflowCompletesExactlyOnceAfterTheWorkerIsKilled() throws Exception {
		String url = TestDatabase.jdbcUrl();
		Path dir = Path.of(System.getProperty("basedir", "."), "target", "crash-recovery-it", this.schema);
		Files.createDirectories(dir);
		Process first = null;
		Process second = null;
		try {
			// 1. the first worker starts the workflows and runs them until it is killed
			Path firstLog = dir.resolve("worker-1.log");
			first = launch(url, "start", firstLog);
			long firstPid = first.pid();
			progress("started worker %d (start mode), output in %s", firstPid, firstLog);
			Process firstProcess = first;
			// kill once all runs exist, a good part of the activities ran and some
			// workflows are complete;
			// the slowest workflows need over 5 s after their start, so many are far from
			// complete then
			await("the first worker started all workflows, ran " + KILL_AFTER_ACTIVITIES
					+ " activities and completed a workflow")
				.atMost(Duration.ofSeconds(60))
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(20))
				.until(() -> {
					assertAlive(firstProcess, firstLog);
					return runCount() == CrashWorker.WORKFLOWS && logCount() >= KILL_AFTER_ACTIVITIES
							&& completedCount() > 0;
				});

			// 2. SIGKILL: no shutdown hook, no release of runs, activities cut short
			ProcessHandle firstHandle = first.toHandle();
			first.destroyForcibly();
			assertThat(first.waitFor(30, TimeUnit.SECONDS)).as("first worker exited after SIGKILL").isTrue();
			assertThat(first.exitValue()).as("exit value of the first worker (128 + SIGKILL)").isEqualTo(SIGKILL_EXIT);
			assertThat(firstHandle.isAlive()).isFalse();
			assertThat(ProcessHandle.of(firstPid).filter(ProcessHandle::isAlive)).as("process %d", firstPid).isEmpty();
			Instant killedAt = this.jdbc.queryForObject("SELECT clock_timestamp()", Timestamp.class).toInstant();
			Map<String, Integer> statusAtKill = statusCounts();
			int loggedAtKill = logCount();
			int completedAtKill = statusAtKill.getOrDefault("COMPLETED", 0);
			progress("killed worker %d at %s: %d activity executions logged, runs by status %s", firstPid, killedAt,
					loggedAtKill, statusAtKill);
			assertThat(statusAtKill.keySet()).as("run statuses at the kill").isSubsetOf("RUNNING", "COMPLETED");
			assertThat(completedAtKill).as("workflows complete at the kill (the kill must be mid-way)")
				.isBetween(1, CrashWorker.WORKFLOWS - 1);

			// 3. a second worker, serving only, takes the runs over once the first node
			// is stale
			Path secondLog = dir.resolve("worker-2.log");
			second = launch(url, "serve", secondLog);
			long secondPid = second.pid();
			progress("started worker %d (serve mode), output in %s", secondPid, secondLog);
			Process secondProcess = second;
			await("all workflows completed on the second worker").atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> {
					assertAlive(secondProcess, secondLog);
					Map<String, Integer> status = statusCounts();
					assertThat(status.keySet()).as("run statuses").isSubsetOf("RUNNING", "COMPLETED");
					return status.getOrDefault("COMPLETED", 0) == CrashWorker.WORKFLOWS;
				});
			progress("all %d workflows completed", CrashWorker.WORKFLOWS);
			second.destroyForcibly();
			second.waitFor(30, TimeUnit.SECONDS);

			// 4. exactly one run per workflow id, completed, with the right result and a
			// clean history
			List<Map<String, Object>> runs = this.jdbc.queryForList(
					"SELECT workflow_id, status, run_id FROM " + this.schema + ".workflow_run ORDER BY workflow_id");
			assertThat(runs).extracting((r) -> (String) r.get("workflow_id"))
				.as("one run per workflow id")
				.doesNotHaveDuplicates()
				.containsExactlyInAnyOrderElementsOf(allWorkflowIds());
			assertThat(runs).extracting((r) -> (String) r.get("status")).containsOnly("COMPLETED");
			checkResultsAndHistories(runs);

			// 5. activities: all ran; only those cut short by the kill ran again, once,
			// on the second worker
			checkExecutions(executions(), firstPid, secondPid, killedAt, loggedAtKill);
			progress("checked");
		}
		finally {
			destroy(first);
			destroy(second);
		}
	}

	private void checkResultsAndHistories(List<Map<String, Object>> runs) {
		try (WorkflowEngine client = WorkflowEngine.builder()
			.dataSource(TestDatabase.dataSource())
			.schema(this.schema)
			.worker(false)
			.migrateSchema(false)
			.register(CrashWorker.ChainWorkflow.class)
			.registerActivities(new CrashWorker.LoggingChainSteps(TestDatabase.dataSource(), this.schema))
			.build()
			.start()) {
			for (Map<String, Object> run : runs) {
				String workflowId = (String) run.get("workflow_id");
				int index = Integer.parseInt(workflowId.substring("crash-".length()));
				assertThat(client.client().handle(workflowId, String.class).result(Duration.ofSeconds(5)))
					.as("result of %s", workflowId)
					.isEqualTo(CrashWorker.expectedResult(index));
				List<String> types = client.client()
					.handle(workflowId)
					.history()
					.stream()
					.map(HistoryEvent::type)
					.toList();
				assertThat(types).as("history of %s", workflowId)
					.filteredOn("ACTIVITY_SCHEDULED"::equals)
					.hasSize(CrashWorker.STEPS);
				assertThat(types).as("history of %s", workflowId)
					.filteredOn("ACTIVITY_COMPLETED"::equals)
					.hasSize(CrashWorker.STEPS);
				assertThat(types).as("history of %s", workflowId)
					.filteredOn((t) -> t.startsWith("WORKFLOW_") && !t.equals("WORKFLOW_STARTED"))
					.containsExactly("WORKFLOW_COMPLETED");
				Engines.assertReplays(client, (java.util.UUID) run.get("run_id"));
			}
		}
	}

	private void checkExecutions(List<Execution> executions, long firstPid, long secondPid, Instant killedAt,
			int loggedAtKill) {
		assertThat(executions).extracting(Execution::pid).containsOnly(firstPid, secondPid);
		// (an insert the database was executing at the kill may still commit just after
		// it)
		assertThat(executions).filteredOn((e) -> e.pid() == firstPid)
			.as("executions on the first worker")
			.hasSizeGreaterThanOrEqualTo(loggedAtKill)
			.allSatisfy((e) -> assertThat(e.startedAt()).isBefore(killedAt));
		assertThat(executions).filteredOn((e) -> e.pid() == secondPid)
			.as("executions on the second worker")
			.isNotEmpty()
			.allSatisfy((e) -> assertThat(e.startedAt()).isAfter(killedAt));

		Map<String, Map<Integer, List<Execution>>> byWorkflow = new TreeMap<>();
		for (Execution e : executions) {
			byWorkflow.computeIfAbsent(e.workflowId(), (k) -> new TreeMap<>())
				.computeIfAbsent(e.step(), (k) -> new ArrayList<>())
				.add(e);
		}
		assertThat(byWorkflow.keySet()).containsExactlyInAnyOrderElementsOf(allWorkflowIds());
		int reRun = 0;
		Map<Long, List<Long>> overheads = new TreeMap<>();
		for (Map.Entry<String, Map<Integer, List<Execution>>> workflow : byWorkflow.entrySet()) {
			String workflowId = workflow.getKey();
			Map<Integer, List<Execution>> steps = workflow.getValue();
			assertThat(steps.keySet()).as("steps of %s that ran", workflowId).containsExactly(1, 2, 3, 4, 5);
			int twice = 0;
			Instant previousLast = Instant.MIN;
			for (Map.Entry<Integer, List<Execution>> step : steps.entrySet()) {
				List<Execution> runs = step.getValue();
				String what = "step " + step.getKey() + " of " + workflowId + ": " + runs;
				assertThat(runs).as(what).hasSizeBetween(1, 2);
				if (runs.size() == 2) {
					twice++;
					Execution earlier = runs.get(0);
					Execution later = runs.get(1);
					assertThat(earlier.pid()).as("first execution of " + what).isEqualTo(firstPid);
					assertThat(earlier.startedAt()).as("first execution of " + what).isBefore(killedAt);
					assertThat(later.pid()).as("second execution of " + what).isEqualTo(secondPid);
				}
				// sequential: a step starts only after the previous one's (last)
				// execution started
				assertThat(runs.get(0).startedAt()).as("start of " + what).isAfter(previousLast);
				if (step.getKey() > 1 && runs.get(0).pid() == runs.get(runs.size() - 1).pid()
						&& steps.get(step.getKey() - 1).stream().allMatch((e) -> e.pid() == runs.get(0).pid())) {
					// from one step's start to the next one's, less the step's work: the
					// engine's overhead
					long gap = Duration.between(previousLast, runs.get(0).startedAt()).toMillis();
					int index = Integer.parseInt(workflowId.substring("crash-".length()));
					overheads.computeIfAbsent(runs.get(0).pid(), (k) -> new ArrayList<>())
						.add(gap - CrashWorker.stepMillis(index));
				}
				previousLast = runs.get(runs.size() - 1).startedAt();
			}
			assertThat(twice).as("steps of %s that ran twice", workflowId).isLessThanOrEqualTo(1);
			reRun += twice;
		}
		overheads.forEach((pid, values) -> {
			values.sort(null);
			progress(
					"worker %d: from the end of a step to the start of the next: median %d ms, p90 %d ms, max %d ms"
							+ " (%d steps)",
					pid, values.get(values.size() / 2), values.get(values.size() * 9 / 10),
					values.get(values.size() - 1), values.size());
		});
		Instant firstStart = executions.get(0).startedAt();
		Instant firstOnSecond = executions.stream()
			.filter((e) -> e.pid() == secondPid)
			.findFirst()
			.orElseThrow()
			.startedAt();
		Instant last = executions.get(executions.size() - 1).startedAt();
		progress("attempt numbers of the executions on the second worker that re-ran an activity: %s",
				reExecutedAttempts(secondPid, byWorkflow));
		progress(
				"%d activity executions in all, %d re-executed after the kill; first activity at %s, kill %d ms"
						+ " later, first activity on the second worker %d ms after the kill, last one %d ms after it",
				executions.size(), reRun, firstStart, Duration.between(firstStart, killedAt).toMillis(),
				Duration.between(killedAt, firstOnSecond).toMillis(), Duration.between(killedAt, last).toMillis());
		assertThat(executions).hasSize(CrashWorker.WORKFLOWS * CrashWorker.STEPS + reRun);
		assertThat(reRun).as("activities cut short by the kill and run again (the kill must hit running activities)")
			.isPositive();
	}

	/** How many re-executions reported each attempt number (ActivityInfo.attempt()). */
	private static Map<Integer, Integer> reExecutedAttempts(long secondPid,
			Map<String, Map<Integer, List<Execution>>> byWorkflow) {
		Map<Integer, Integer> attempts = new TreeMap<>();
		byWorkflow.values()
			.stream()
			.flatMap((steps) -> steps.values().stream())
			.filter((runs) -> runs.size() == 2)
			.map((runs) -> runs.get(1))
			.filter((e) -> e.pid() == secondPid)
			.forEach((e) -> attempts.merge(e.attempt(), 1, Integer::sum));
		return attempts;
	}

	private Process launch(String url, String mode, Path output) throws IOException {
		String java = ProcessHandle.current()
			.info()
			.command()
			.orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		List<String> command = List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
				System.getProperty("java.class.path"), CrashWorker.class.getName(), url, this.schema, mode,
				Long.toString(ProcessHandle.current().pid()));
		return new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.to(output.toFile()))
			.start();
	}

	private void progress(String format, Object... args) {
		System.out.printf("[CrashRecoveryIT +%d ms] %s%n", (System.nanoTime() - this.began) / 1_000_000,
				String.format(format, args));
	}

	private static void assertAlive(Process process, Path log) {
		if (!process.isAlive()) {
			fail("Worker " + process.pid() + " exited with " + process.exitValue() + "; its output (" + log + "):\n"
					+ tail(log));
		}
	}

	private static String tail(Path log) {
		try {
			List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
		}
		catch (IOException ex) {
			return "(unreadable: " + ex + ")";
		}
	}

	private static void destroy(Process process) {
		if (process != null && process.isAlive()) {
			process.destroyForcibly();
			try {
				process.waitFor(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private static Set<String> allWorkflowIds() {
		Set<String> ids = new java.util.HashSet<>();
		for (int i = 0; i < CrashWorker.WORKFLOWS; i++) {
			ids.add(CrashWorker.workflowId(i));
		}
		return ids;
	}

	/** The rows of a table, 0 while the first worker has not created it. */
	private int count(String table) {
		Boolean exists = this.jdbc.queryForObject("SELECT to_regclass(?) IS NOT NULL", Boolean.class, table);
		return Boolean.TRUE.equals(exists) ? this.jdbc.queryForObject("SELECT count(*) FROM " + table, Integer.class)
				: 0;
	}

	private int runCount() {
		return count(this.schema + ".workflow_run");
	}

	private int completedCount() {
		return this.jdbc.queryForObject(
				"SELECT count(*) FROM " + this.schema + ".workflow_run WHERE status = 'COMPLETED'", Integer.class);
	}

	private int logCount() {
		return count(this.logTable);
	}

	private Map<String, Integer> statusCounts() {
		Map<String, Integer> counts = new LinkedHashMap<>();
		this.jdbc.query("SELECT status, count(*) FROM " + this.schema + ".workflow_run GROUP BY status ORDER BY status",
				(rs) -> {
					counts.put(rs.getString(1), rs.getInt(2));
				});
		return counts;
	}

	private List<Execution> executions() {
		return this.jdbc.query(
				"SELECT workflow_id, step, pid, attempt, started_at FROM " + this.logTable + " ORDER BY started_at, id",
				(rs, n) -> new Execution(rs.getString(1), rs.getInt(2), rs.getLong(3), rs.getInt(4),
						rs.getTimestamp(5).toInstant()));
	}

}
