package dev.durable.cli;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.cli.app.CliTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code durable builds}, {@code builds current|ramp|move} and {@code move-build} against
 * a node of build {@code cli-2.0}: the drain status a person reads, the routing an
 * operator sets, a stranded run moved, and the usage errors.
 */
@SpringBootTest(classes = CliTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "durable.workflow.schema=cli_builds", "durable.workflow.embedded-postgres.port=0",
				"durable.workflow.worker.poll-interval=100ms", "durable.workflow.web.operations-enabled=true",
				"durable.workflow.node.build-id=cli-2.0" })
class WorkerVersioningCliTest extends CliTestSupport {

	@Autowired
	private JdbcTemplate jdbc;

	private Run ok(String... args) {
		Run run = cli(args);
		assertThat(run.exitCode()).as("%s", run).isZero();
		return run;
	}

	@Test
	void buildsCurrentAndRamp() {
		assertThat(ok("builds").out()).contains("Current build")
			.contains("cli-2.0 (newest with a live node)")
			.contains("CURRENT");
		assertThat(ok("builds", "current", "cli-2.0").out()).contains("cli-2.0 (chosen)");
		assertThat(ok("builds", "ramp", "cli-3.0", "--percent", "10").out()).contains("cli-3.0 (10% of new runs)");
		assertThat(ok("-o", "json", "builds").json().path("routing").path("rampingPercent").asInt()).isEqualTo(10);
		assertThat(ok("builds", "ramp", "--off").out()).contains("Ramping build").doesNotContain("cli-3.0");
		assertThat(ok("builds", "current", "--newest").out()).contains("(newest with a live node)");

		assertThat(cli("builds", "ramp", "cli-3.0").exitCode()).isEqualTo(ExitCode.USAGE);
		assertThat(cli("builds", "current").exitCode()).isEqualTo(ExitCode.USAGE);
		assertThat(cli("builds", "sideways").exitCode()).isEqualTo(ExitCode.USAGE);
		Run refused = cli("builds", "ramp", "cli-3.0", "--percent", "300");
		assertThat(refused.exitCode()).isEqualTo(ExitCode.REJECTED);
		assertThat(refused.err()).contains("between 0 and 100");
	}

	@Test
	void aStrandedRunIsShownAndMoved() {
		ok("start", "ticket", "--id", "builds-cli-1", "--input", "{\"title\":\"t\",\"priority\":2}");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> cli("-o", "json", "describe", "builds-cli-1").json().path("workflowTasks").asInt() >= 1);
		assertThat(ok("describe", "builds-cli-1").out()).contains("Build").contains("cli-2.0");
		this.jdbc.update("UPDATE cli_builds.workflow_run SET build_id = 'cli-1.0', pinned = true, owner_node = NULL"
				+ " WHERE workflow_id = 'builds-cli-1'");
		assertThat(ok("describe", "builds-cli-1").out()).contains("cli-1.0 (pinned)")
			.contains("Waiting for build")
			.contains("BUILD cli-1.0");
		assertThat(ok("builds").out()).contains("cli-1.0").contains("DRAINING");

		assertThat(cli("builds", "move", "cli-1.0").exitCode()).isEqualTo(ExitCode.USAGE);
		assertThat(cli("builds", "move", "cli-1.0", "--to", "cli-9.0").exitCode()).isEqualTo(ExitCode.REJECTED);
		assertThat(ok("builds", "move", "cli-1.0", "--to", "cli-2.0").out()).contains("Moved builds-cli-1 (run ")
			.contains("from build cli-1.0 to build cli-2.0");
		assertThat(ok("builds", "move", "cli-1.0", "--to", "cli-2.0").out()).contains("No run to move");
		assertThat(ok("describe", "builds-cli-1").out()).doesNotContain("Waiting for build");

		this.jdbc.update("UPDATE cli_builds.workflow_run SET build_id = 'cli-1.0' WHERE workflow_id = 'builds-cli-1'");
		assertThat(ok("-o", "json", "move-build", "builds-cli-1", "--to", "cli-2.0").json().path("moved").size())
			.isEqualTo(1);
		assertThat(cli("move-build", "no-such-ticket", "--to", "cli-2.0").exitCode()).isEqualTo(ExitCode.NOT_FOUND);
	}

}
