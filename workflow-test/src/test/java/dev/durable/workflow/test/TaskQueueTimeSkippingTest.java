package dev.durable.workflow.test;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.TimeoutFailure;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Time skipping with activities on task queues, served by another node of the environment
 * or by none.
 */
class TaskQueueTimeSkippingTest {

	@Activity
	public interface Transcoder {

		@ActivityMethod(taskQueue = "video", scheduleToStartTimeout = "PT6H")
		String transcode(String file);

	}

	public static class FastTranscoder implements Transcoder {

		@Override
		public String transcode(String file) {
			return file + ".mp4";
		}

	}

	@Workflow("transcode")
	public static class TranscodeWorkflow {

		private final Transcoder transcoder;

		public TranscodeWorkflow(Transcoder transcoder) {
			this.transcoder = transcoder;
		}

		@WorkflowRun
		public String run(String file) {
			try {
				return this.transcoder.transcode(file);
			}
			catch (ActivityFailure ex) {
				return "gave up: " + ((TimeoutFailure) ex.getCause()).getTimeoutType();
			}
		}

	}

	private final TestWorkflowEnvironment env = TestWorkflowEnvironment.builder()
		.registerWorkflows(TranscodeWorkflow.class)
		.build();

	@AfterEach
	void close() {
		this.env.close();
	}

	@Test
	void aWorkerNodeOfTheEnvironmentRunsTheQueuesActivities() {
		this.env.newWorkerEngine((builder) -> builder.runWorkflows(false)
			.activityTaskQueues("video")
			.registerActivities(new FastTranscoder()));
		assertThat(this.env.client().execute(TranscodeWorkflow::run, "clip", StartOptions.withId("transcode-1")))
			.isEqualTo("clip.mp4");
	}

	@Test
	void withNoWorkerTheScheduleToStartTimeoutIsSkippedTo() {
		Instant start = this.env.currentTime();
		assertThat(this.env.client().execute(TranscodeWorkflow::run, "clip", StartOptions.withId("transcode-2")))
			.isEqualTo("gave up: SCHEDULE_TO_START");
		assertThat(this.env.currentTime()).isBetween(start.plus(Duration.ofHours(6)), start.plus(Duration.ofHours(7)));
	}

}
