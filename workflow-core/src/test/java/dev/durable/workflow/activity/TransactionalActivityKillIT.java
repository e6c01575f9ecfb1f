package dev.durable.workflow.activity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.crash.TransactionalWorker;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * Kills worker JVMs with SIGKILL at random points (each while one of the worker's
 * transactions is open) while they run 500 transactional activities (100 workflows of 5
 * steps), each inserting a row with a unique key into an application table, each followed
 * by a plain activity that logs its execution. Two workers are killed, a third finishes.
 * Afterwards: exactly 500 rows, 500 completed transactional steps, never a duplicate key,
 * while the plain activities show what at-least-once means: some ran twice.
 *
 * <p>
 * The workers' output is in {@code target/transactional-kill-it/<schema>/worker-N.log}.
 */
class TransactionalActivityKillIT {

	private static final int SIGKILL_EXIT = 128 + 9;

	private static final int ACTIVITIES = TransactionalWorker.WORKFLOWS * TransactionalWorker.STEPS;

	private final JdbcTemplate jdbc = TestDatabase.jdbc();

	private final String schema = TestDatabase.newSchema();

	private final String app = TransactionalWorker.appSchema(this.schema);

	private final long began = System.nanoTime();

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void transactionalActivitiesWriteExactlyOnceAcrossKills() throws Exception {
		long seed = System.nanoTime();
		Random random = new Random(seed);
		progress("random seed %d", seed);
		String url = TestDatabase.jdbcUrl();
		Path dir = Path.of(System.getProperty("basedir", "."), "target", "transactional-kill-it", this.schema);
		Files.createDirectories(dir);
		Process worker = null;
		try {
			// two workers killed at random points of the work, a third one finishes it
			int killAt = 0;
			for (int n = 1; n <= 3; n++) {
				Path log = dir.resolve("worker-" + n + ".log");
				worker = launch(url, (n == 1) ? "start" : "serve", log);
				Process running = worker;
				progress("started worker %d (pid %d), output in %s", n, worker.pid(), log);
				if (n == 3) {
					await("all workflows completed").atMost(Duration.ofSeconds(90))
						.pollInterval(Duration.ofMillis(200))
						.until(() -> {
							assertAlive(running, log);
							return completedRuns() == TransactionalWorker.WORKFLOWS;
						});
					break;
				}
				killAt = Math.min(ACTIVITIES - 60, killAt + 40 + random.nextInt(160));
				int threshold = killAt;
				// the kill comes while the worker holds a transaction open: a random
				// point alone may
				// fall between transactions on a fast machine, and then no kill cuts one
				// short
				await("worker " + n + " started all workflows, committed " + threshold
						+ " rows and holds a transaction open")
					.atMost(Duration.ofSeconds(60))
					.pollDelay(Duration.ZERO)
					.pollInterval(Duration.ofMillis(5))
					.until(() -> {
						assertAlive(running, log);
						return runs() == TransactionalWorker.WORKFLOWS && rows() >= threshold
								&& openTransactions(running.pid()) > 0;
					});
				worker.destroyForcibly(); // SIGKILL: no shutdown, transactions cut short
				assertThat(worker.waitFor(30, TimeUnit.SECONDS)).isTrue();
				assertThat(worker.exitValue()).as("exit value of worker %d (128 + SIGKILL)", n).isEqualTo(SIGKILL_EXIT);
				progress("killed worker %d at %d committed rows (%d transactional executions, %d plain ones so far)", n,
						rows(), count("txn_execution"), count("plain_execution"));
			}
			worker.destroyForcibly();
			worker.waitFor(30, TimeUnit.SECONDS);

			// exactly once for the transactional activity's writes
			assertThat(rows()).as("rows of the transactional activities").isEqualTo(ACTIVITIES);
			assertThat(
					this.jdbc.queryForObject("SELECT count(DISTINCT key) FROM " + this.app + ".txn_row", Integer.class))
				.isEqualTo(ACTIVITIES);
			for (int n = 1; n <= 3; n++) {
				assertThat(Files.readString(dir.resolve("worker-" + n + ".log"), StandardCharsets.UTF_8))
					.as("output of worker %d", n)
					.doesNotContain(TransactionalWorker.DUPLICATE_KEY);
			}
			int txnExecutions = count("txn_execution");
			progress("transactional: %d rows from %d executions (those cut short by a kill rolled back)", rows(),
					txnExecutions);
			assertThat(txnExecutions).as("transactional executions (the kills must cut some short)")
				.isGreaterThan(ACTIVITIES);
			checkHistories();

			// at least once for the plain one: the executions cut short by a kill ran
			// again
			int plainExecutions = count("plain_execution");
			int plainKeys = this.jdbc.queryForObject("SELECT count(DISTINCT key) FROM " + this.app + ".plain_execution",
					Integer.class);
			progress("plain: %d executions of %d steps, %d of them duplicates", plainExecutions, plainKeys,
					plainExecutions - plainKeys);
			assertThat(plainKeys).isEqualTo(ACTIVITIES);
			assertThat(plainExecutions).as("plain executions (at least once: duplicates after the kills)")
				.isGreaterThan(ACTIVITIES);
			assertThat(count("activity")).as("activity rows left").isZero();
		}
		finally {
			if (worker != null && worker.isAlive()) {
				worker.destroyForcibly();
				worker.waitFor(30, TimeUnit.SECONDS);
			}
		}
	}

	/**
	 * 500 completed transactional steps: every workflow completed with its keys, 5 + 5
	 * completions.
	 */
	private void checkHistories() {
		try (WorkflowEngine client = WorkflowEngine.builder()
			.dataSource(TestDatabase.dataSource())
			.schema(this.schema)
			.worker(false)
			.migrateSchema(false)
			.register(TransactionalWorker.TxnChainWorkflow.class)
			.build()
			.start()) {
			int completedSteps = 0;
			for (int i = 0; i < TransactionalWorker.WORKFLOWS; i++) {
				String workflowId = TransactionalWorker.workflowId(i);
				assertThat(client.client().handle(workflowId, String.class).result(Duration.ofSeconds(5)))
					.isEqualTo(TransactionalWorker.expectedResult(i));
				List<String> types = client.client()
					.handle(workflowId)
					.history()
					.stream()
					.map(HistoryEvent::type)
					.toList();
				assertThat(types).as("history of %s", workflowId)
					.filteredOn("ACTIVITY_COMPLETED"::equals)
					.hasSize(2 * TransactionalWorker.STEPS);
				assertThat(types).as("history of %s", workflowId).doesNotContain("ACTIVITY_FAILED");
				completedSteps += TransactionalWorker.STEPS;
			}
			assertThat(completedSteps).isEqualTo(ACTIVITIES);
		}
	}

	private Process launch(String url, String mode, Path output) throws IOException {
		String java = ProcessHandle.current()
			.info()
			.command()
			.orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		List<String> command = List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
				System.getProperty("java.class.path"), TransactionalWorker.class.getName(), url, this.schema, mode,
				Long.toString(ProcessHandle.current().pid()));
		return new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.to(output.toFile()))
			.start();
	}

	private int completedRuns() {
		return exists(this.schema + ".workflow_run") ? this.jdbc.queryForObject(
				"SELECT count(*) FROM " + this.schema + ".workflow_run WHERE status = 'COMPLETED'", Integer.class) : 0;
	}

	private int runs() {
		return exists(this.schema + ".workflow_run")
				? this.jdbc.queryForObject("SELECT count(*) FROM " + this.schema + ".workflow_run", Integer.class) : 0;
	}

	/**
	 * Executions of the worker's transactional activity logged (autocommit, before the
	 * insert) whose row is not committed yet: their transactions are open, as each stays
	 * open a while after its insert.
	 */
	private int openTransactions(long pid) {
		return this.jdbc.queryForObject(
				"SELECT count(*) FROM " + this.app + ".txn_execution e WHERE e.pid = ?"
						+ " AND NOT EXISTS (SELECT 1 FROM " + this.app + ".txn_row r WHERE r.key = e.key)",
				Integer.class, pid);
	}

	private int rows() {
		return count("txn_row");
	}

	private int count(String table) {
		String qualified = table.equals("activity") ? this.schema + "." + table : this.app + "." + table;
		return exists(qualified) ? this.jdbc.queryForObject("SELECT count(*) FROM " + qualified, Integer.class) : 0;
	}

	private boolean exists(String table) {
		return Boolean.TRUE.equals(this.jdbc.queryForObject("SELECT to_regclass(?) IS NOT NULL", Boolean.class, table));
	}

	private void progress(String format, Object... args) {
		System.out.printf("[TransactionalActivityKillIT +%d ms] %s%n", (System.nanoTime() - this.began) / 1_000_000,
				String.format(format, args));
	}

	private static void assertAlive(Process process, Path log) {
		if (!process.isAlive()) {
			String output;
			try {
				output = Files.readString(log, StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				output = "(unreadable: " + ex + ")";
			}
			fail("Worker " + process.pid() + " exited with " + process.exitValue() + "; its output:\n" + output);
		}
	}

}
