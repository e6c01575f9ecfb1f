package dev.durable.workflow.test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.ReplayCheckOptions;
import dev.durable.workflow.engine.ReplayCheckReport;
import dev.durable.workflow.engine.ReplayCheckReport.FailureKind;
import dev.durable.workflow.engine.ReplayCheckReport.RunFailure;
import dev.durable.workflow.test.fixtures.RealGreeter;
import dev.durable.workflow.test.fixtures.TimeWorkflows;
import dev.durable.workflow.test.fixtures.v2.Greeting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The test kit's replay check before a deploy: the runs "greeting" v1 recorded, read from
 * the database or from exported files, replayed on the changed code of the build about to
 * be deployed.
 */
@SuppressWarnings("checkstyle:RegexpSinglelineJava") // three versions of Greeting
class ReplayCheckBeforeDeployTest {

	private static TestWorkflowEnvironment env;

	private static String historyJson;

	@BeforeAll
	static void recordRunsOfTheDeployedCode() {
		env = TestWorkflowEnvironment.builder()
			.registerWorkflows(TimeWorkflows.Greeting.class)
			.registerActivities(new RealGreeter())
			.build();
		for (String name : List.of("Ada", "Grace")) {
			WorkflowHandle<String> handle = env.client()
				.start(TimeWorkflows.Greeting::run, name, StartOptions.withId("greet-" + name));
			handle.result();
			historyJson = JsonMapper.builder().build().writeValueAsString(handle.history());
		}
	}

	@AfterAll
	static void close() {
		env.close();
	}

	@Test
	void theDatabaseCheckNamesEveryRunTheChangedCodeWouldNotReplay() {
		ReplayCheckReport report = WorkflowReplayer.checkDatabase(EmbeddedPostgresSupport.pooledDataSource(),
				env.schema(), "default", ReplayCheckOptions.defaults(), Greeting.class);

		assertThat(report.passed()).isFalse();
		assertThat(report.failures()).extracting(RunFailure::workflowId).containsExactly("greet-Grace", "greet-Ada");
		RunFailure first = report.failures().get(0);
		assertThat(first.kind()).isEqualTo(FailureKind.MISMATCH);
		assertThat(first.recordedCommand()).isEqualTo("ACTIVITY_SCHEDULED#1(greet)");
		assertThat(first.issuedCommand()).startsWith("TIMER_STARTED#1");

		assertThat(WorkflowReplayer
			.checkDatabase(EmbeddedPostgresSupport.pooledDataSource(), env.schema(), "default",
					ReplayCheckOptions.defaults(), dev.durable.workflow.test.fixtures.v3.Greeting.class)
			.passed()).as("the change guarded with getVersion").isTrue();
	}

	@Test
	void theDatabaseCheckRefusesATypeNoClassHas() {
		assertThatThrownBy(() -> WorkflowReplayer.checkDatabase(EmbeddedPostgresSupport.pooledDataSource(),
				env.schema(), "default", ReplayCheckOptions.defaults().withWorkflowTypes("refund"), Greeting.class))
			.isInstanceOf(UnknownWorkflowTypeException.class);
	}

	@Test
	void theDirectoryCheckReplaysEveryExportedFile(@TempDir Path histories) throws Exception {
		Files.writeString(histories.resolve("greet-grace.json"), historyJson);
		Files.writeString(histories.resolve("not-a-history.txt"), "ignored");

		ReplayCheckReport changed = WorkflowReplayer.checkDirectory(histories, WorkflowReplayer.Options.defaults(),
				Greeting.class);
		assertThat(changed.checked()).isEqualTo(1);
		assertThat(changed.failures()).singleElement().satisfies((failure) -> {
			assertThat(failure.workflowId()).isEqualTo("greet-Grace");
			assertThat(failure.kind()).isEqualTo(FailureKind.MISMATCH);
		});
		assertThat(WorkflowReplayer
			.checkDirectory(histories, WorkflowReplayer.Options.defaults(), TimeWorkflows.Greeting.class)
			.passed()).isTrue();
		assertThat(WorkflowReplayer
			.checkDirectory(histories, WorkflowReplayer.Options.defaults(), TimeWorkflows.LongSleep.class)
			.failures()).extracting(RunFailure::kind).containsExactly(FailureKind.UNKNOWN_TYPE);

		Files.writeString(histories.resolve("broken.json"), "{not json");
		assertThatThrownBy(
				() -> WorkflowReplayer.checkDirectory(histories, WorkflowReplayer.Options.defaults(), Greeting.class))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("broken.json");
	}

}
