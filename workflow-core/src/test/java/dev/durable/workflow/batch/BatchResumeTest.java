package dev.durable.workflow.batch;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.batch.BatchRequest;
import dev.durable.workflow.client.batch.BatchState;
import dev.durable.workflow.client.batch.BatchStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.engine.WorkflowInterceptor;
import dev.durable.workflow.internal.batch.BatchWorkflow;
import dev.durable.workflow.support.Engines;

import static dev.durable.workflow.batch.BatchFixture.pokes;
import static dev.durable.workflow.batch.BatchFixture.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A batch survives its node: node a stops in the middle of a page (two of its signals
 * sent, the page not recorded), node b on the same database takes the batch run over,
 * redoes that page and finishes; every run got the signal exactly once (the redone sends
 * are deduplicated by their idempotency keys) and every page counts once, even when node
 * a's abandoned attempt ends after all. The batch run replays.
 */
class BatchResumeTest {

	private final Engines engines = new Engines();

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void close() {
		this.release.countDown();
		this.engines.close();
	}

	/**
	 * On node a: holds the fifth signal (the second of the second page) once it was sent.
	 */
	private final class StopMidPage implements WorkflowInterceptor {

		final AtomicInteger signals = new AtomicInteger();

		final CountDownLatch held = new CountDownLatch(1);

		final CountDownLatch attemptEnded = new CountDownLatch(1);

		@Override
		public <R> R interceptClient(ClientCall call, Supplier<R> next) {
			R result = next.get();
			if (call.operation() == ClientOperation.SIGNAL && this.signals.incrementAndGet() == 5) {
				this.held.countDown();
				awaitReleaseThroughInterrupts();
			}
			return result;
		}

		/**
		 * Holds the attempt until the test releases it, even when interrupted: node a's
		 * stop gives the attempt up, and its thread can still be interrupted after that
		 * (in one clean-clone run its next signal failed with "Closed by interrupt" and
		 * the attempt recorded its page, with that failure, before node b did; what
		 * interrupted it was not found).
		 */
		private void awaitReleaseThroughInterrupts() {
			while (true) {
				try {
					BatchResumeTest.this.release.await(60, TimeUnit.SECONDS);
					return;
				}
				catch (InterruptedException ex) {
					// hold on: the abandoned attempt must outlive the node's stop
				}
			}
		}

		@Override
		public @Nullable Object interceptActivity(ActivityCall call,
				java.util.concurrent.Callable<@Nullable Object> next) throws Exception {
			try {
				return next.call();
			}
			finally {
				if (this.held.getCount() == 0) {
					this.attemptEnded.countDown();
				}
			}
		}

	}

	private WorkflowEngine.Builder node() {
		return this.engines.builder()
			.register(BatchFixture.Target.class)
			.heartbeatInterval(Duration.ofMillis(500))
			.deadAfter(Duration.ofMinutes(1))
			.shutdownTimeout(Duration.ofSeconds(1));
	}

	@Test
	void aBatchStoppedMidPageResumesOnAnotherNodeAndSignalsEachRunOnce() throws Exception {
		StopMidPage stop = new StopMidPage();
		WorkflowEngine a = this.engines.start(node().interceptor(stop));
		for (int i = 0; i < 7; i++) {
			target(a.client(), "m-" + i, "a");
		}
		a.client()
			.startBatch(BatchRequest.signal(WorkflowFilter.ofType("batch-target"), "poke", "once")
				.withBatchId("resume")
				.withPageSize(3));
		assertThat(stop.held.await(30, TimeUnit.SECONDS)).as("node a sent five signals").isTrue();
		assertThat(a.client().describeBatch("resume").processed()).as("the first page only is recorded").isEqualTo(3);

		CompletableFuture<Void> stopped = CompletableFuture.runAsync(a::shutdown);
		stopped.get(20, TimeUnit.SECONDS);
		WorkflowEngine b = this.engines.start(node());
		WorkflowClient client = b.client();
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			// the given-up attempt is retried after its backoff, on the engine clock
			this.engines.clock.advance(Duration.ofSeconds(1));
			return client.describeBatch("resume").state() != BatchState.RUNNING;
		});

		BatchStatus done = client.describeBatch("resume");
		assertThat(done.state()).isEqualTo(BatchState.COMPLETED);
		assertThat(List.of(done.total(), done.processed(), done.succeeded(), done.skipped(), done.failed()))
			.containsExactly(7L, 7L, 7L, 0L, 0L);
		// node a's abandoned attempt now ends: its page was recorded by b, so it counts
		// nothing
		this.release.countDown();
		assertThat(stop.attemptEnded.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(client.describeBatch("resume").processed()).isEqualTo(7);
		for (int i = 0; i < 7; i++) {
			String id = "m-" + i;
			await().until(() -> !pokes(client, id).isEmpty());
			assertThat(pokes(client, id)).as(id).containsExactly("once");
		}
		Engines.assertReplays(b, client.handle(BatchWorkflow.workflowId("resume")).describe().runId());
	}

}
