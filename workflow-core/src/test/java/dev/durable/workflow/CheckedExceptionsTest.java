package dev.durable.workflow;

import java.io.IOException;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Methods that declare checked exceptions: method references to them compile where the
 * API takes one, and a checked exception of an activity reaches the workflow as an
 * ActivityFailure whose cause is an ApplicationFailure of the exception's type.
 */
class CheckedExceptionsTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public interface Files {

		@ActivityMethod(maxAttempts = 1)
		String read(String path) throws IOException;

	}

	@Workflow("reads-file")
	public static class ReadsFileWorkflow {

		private final Files files;

		public ReadsFileWorkflow(Files files) {
			this.files = files;
		}

		@WorkflowRun
		public String run(String path) throws IOException {
			try {
				return this.files.read(path);
			}
			catch (ActivityFailure ex) {
				ApplicationFailure cause = (ApplicationFailure) ex.getCause();
				return "failed: " + cause.getType() + ": " + cause.getMessage();
			}
		}

	}

	@Workflow("reads-via-child")
	public static class ReadsViaChildWorkflow {

		@WorkflowRun
		public String run(String path) throws Exception {
			return Workflows.executeChild(ReadsFileWorkflow::run, path, ChildOptions.withId("child-of-" + path));
		}

	}

	@Test
	void aCheckedExceptionOfAnActivityIsItsFailureType() {
		Files files = (path) -> {
			throw new IOException("no such file: " + path);
		};
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(ReadsFileWorkflow.class, ReadsViaChildWorkflow.class)
			.registerActivities(files));
		WorkflowHandle<String> handle = engine.client()
			.start(ReadsViaChildWorkflow::run, "a.txt", StartOptions.withId("checked-1"));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("failed: java.io.IOException: no such file: a.txt");
		Engines.assertReplays(engine, handle.runId());
	}

}
