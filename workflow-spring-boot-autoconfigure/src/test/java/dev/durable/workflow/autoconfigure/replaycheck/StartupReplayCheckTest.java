package dev.durable.workflow.autoconfigure.replaycheck;

import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.autoconfigure.DurableWorkflowAutoConfiguration;
import dev.durable.workflow.autoconfigure.StartupReplayCheck;
import dev.durable.workflow.autoconfigure.actuate.DurableWorkflowHealthAutoConfiguration;
import dev.durable.workflow.autoconfigure.actuate.ReplayCheckHealthIndicator;
import dev.durable.workflow.autoconfigure.replaycheck.v1.ParcelApplication;
import dev.durable.workflow.autoconfigure.replaycheck.v2.NewBuildApplication;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code durable.workflow.replay-check.on-startup}: a node of a new build replays a
 * sample of the open runs of its types once it has started, logs the runs it would not
 * replay and reports them in the {@code durableReplayCheck} health contributor.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupReplayCheckTest {

	private final String schema = EmbeddedPostgresSupport.newSchemaName();

	private ApplicationContextRunner build(Class<?> application) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class,
					DurableWorkflowHealthAutoConfiguration.class))
			.withUserConfiguration(application)
			.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
			.withPropertyValues("durable.workflow.schema=" + this.schema);
	}

	/** The running build leaves two parcels waiting for a day. */
	@BeforeEach
	void openRunsOfTheRunningBuild() {
		build(ParcelApplication.class).run((context) -> {
			WorkflowClient client = context.getBean(WorkflowClient.class);
			client.start("parcel", null, StartOptions.withId("parcel-1"));
			client.start("parcel", null, StartOptions.withId("parcel-2"));
			JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
			await()
				.until(() -> jdbc.queryForObject("SELECT count(*) FROM " + this.schema + ".timer", Integer.class) == 2);
		});
	}

	@Test
	void aNewBuildThatWouldNotReplayTheOpenRunsSaysSoInItsHealthAndLog(CapturedOutput output) {
		build(NewBuildApplication.class).withPropertyValues("durable.workflow.replay-check.on-startup=true")
			.run((context) -> {
				ReplayCheckHealthIndicator indicator = context.getBean(ReplayCheckHealthIndicator.class);
				await().until(() -> indicator.health().getStatus() != Status.UNKNOWN);
				Health health = indicator.health();
				assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
				assertThat(health.getDetails()).containsEntry("checked", 2)
					.containsEntry("failedTypes", List.of("parcel"));
				@SuppressWarnings("unchecked")
				List<Map<String, Object>> failures = (List<Map<String, Object>>) health.getDetails().get("failures");
				assertThat(failures).extracting((failure) -> failure.get("workflowId"))
					.containsExactly("parcel-2", "parcel-1");
				assertThat(failures.get(0)).containsEntry("kind", "MISMATCH").containsEntry("workflowTask", 1);
				assertThat(output)
					.contains("Replay check: 2 of 2 histories of 1 workflow type do not replay on this code (parcel)")
					.contains("Run parcel-2 (")
					.contains("of workflow type parcel does not replay on this build");
			});
	}

	@Test
	void theBuildThatStartedTheRunsPasses(CapturedOutput output) {
		build(ParcelApplication.class).withPropertyValues("durable.workflow.replay-check.on-startup=true")
			.withPropertyValues("durable.workflow.replay-check.sample-size=1")
			.run((context) -> {
				ReplayCheckHealthIndicator indicator = context.getBean(ReplayCheckHealthIndicator.class);
				await().until(() -> indicator.health().getStatus() != Status.UNKNOWN);
				assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
				assertThat(indicator.health().getDetails()).containsEntry("checked", 1)
					.containsEntry("failedTypes", List.of());
				assertThat(output)
					.contains("Replay check: 1 history of 1 workflow type: every one replays on this code");
			});
	}

	@Test
	void offByDefault() {
		build(NewBuildApplication.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(StartupReplayCheck.class);
			assertThat(context).doesNotHaveBean(ReplayCheckHealthIndicator.class);
		});
	}

}
