package dev.durable.workflow.payload;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.internal.support.NonData;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A result that is not a data object (a thread, a stream) fails the attempt for good with
 * a {@code PayloadException}, instead of completing with Jackson's dump of its getters.
 */
class NonDataPayloadTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** A data result. */
	public record Reading(String sensor, double value) {
	}

	/**
	 * Activities declared as returning {@code Object}, so only the returned value can be
	 * checked.
	 */
	@Activity
	public interface Sources {

		Object thread();

		Object stream();

		Object reading();

	}

	public static class SourcesImpl implements Sources {

		final AtomicInteger calls = new AtomicInteger();

		@Override
		public Object thread() {
			this.calls.incrementAndGet();
			return new Thread(() -> {
			});
		}

		@Override
		public Object stream() {
			this.calls.incrementAndGet();
			return new ByteArrayInputStream(new byte[] { 1, 2, 3 });
		}

		@Override
		public Object reading() {
			this.calls.incrementAndGet();
			return new Reading("t1", 21.5);
		}

	}

	/** Calls the activity named by the input and describes how it failed. */
	@Workflow("non-data-caller")
	public static class CallerWorkflow {

		private final Sources sources;

		public CallerWorkflow(Sources sources) {
			this.sources = sources;
		}

		@WorkflowRun
		public String run(String which) {
			try {
				Object result = switch (which) {
					case "thread" -> this.sources.thread();
					case "stream" -> this.sources.stream();
					default -> this.sources.reading();
				};
				return "completed " + result;
			}
			catch (ActivityFailure failure) {
				ApplicationFailure cause = (ApplicationFailure) failure.getCause();
				return "attempt " + failure.getAttempt() + " " + cause.getType() + " nonRetryable="
						+ cause.isNonRetryable() + " " + cause.getMessage();
			}
		}

	}

	private final SourcesImpl impl = new SourcesImpl();

	private String runOnce(String which) {
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(CallerWorkflow.class).registerActivities(this.impl));
		WorkflowHandle<String> handle = engine.client()
			.start(CallerWorkflow::run, which, StartOptions.withId("non-data-" + which));
		String result = handle.result(Duration.ofSeconds(10));
		Engines.assertReplays(engine, handle.runId());
		return result;
	}

	@Test
	void anActivityReturningAThreadFailsItsOnlyAttempt() {
		String result = runOnce("thread");
		assertThat(result).startsWith("attempt 1 PayloadException nonRetryable=true")
			.contains("the result of activity thread")
			.contains("java.lang.Thread")
			.contains("not a data object");
		assertThat(this.impl.calls).hasValue(1);
	}

	@Test
	void anActivityReturningAStreamFailsItsOnlyAttempt() {
		String result = runOnce("stream");
		assertThat(result).startsWith("attempt 1 PayloadException nonRetryable=true")
			.contains("the result of activity stream")
			.contains("java.io.ByteArrayInputStream");
		assertThat(this.impl.calls).hasValue(1);
	}

	@Test
	void aRecordStillCompletes() {
		// the workflow reads an Object result back as a map of its properties
		assertThat(runOnce("reading")).isEqualTo("completed {sensor=t1, value=21.5}");
	}

	@Test
	void theRuleKeepsDataAndRefusesResourcesInsideContainers() {
		assertThat(NonData.valueProblem(List.of(new Reading("a", 1), java.util.Map.of("k", List.of(1, 2)),
				java.util.Optional.of("x"), java.time.Instant.EPOCH, Thread.State.NEW, new int[] { 1 }, String.class)))
			.isNull();
		assertThat(NonData.valueProblem(java.util.Map.of("t", List.of(Thread.currentThread()))))
			.isEqualTo("a java.lang.Thread");
		assertThat(NonData.valueProblem(List.of(1, 2).stream())).startsWith("a java.util.stream");
		assertThat(NonData.valueProblem((Runnable) () -> {
		})).startsWith("a ");
	}

}
