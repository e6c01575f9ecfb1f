package dev.durable.workflow.batch;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.InvalidWorkflowIdException;
import dev.durable.workflow.client.ResetPoint;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.batch.BatchIdConflictException;
import dev.durable.workflow.client.batch.BatchNotFoundException;
import dev.durable.workflow.client.batch.BatchOperation;
import dev.durable.workflow.client.batch.BatchRequest;
import dev.durable.workflow.client.batch.BatchState;
import dev.durable.workflow.client.batch.BatchStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.engine.WorkflowInterceptor;
import dev.durable.workflow.engine.WorkflowTypeInfo;
import dev.durable.workflow.internal.batch.BatchWorkflow;
import dev.durable.workflow.support.Engines;

import static dev.durable.workflow.batch.BatchFixture.closed;
import static dev.durable.workflow.batch.BatchFixture.pokes;
import static dev.durable.workflow.batch.BatchFixture.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Batch operations: cancel, terminate, signal and reset of every run a filter matches, a
 * page at a time, with progress counts; a retried start returns the batch, a different
 * request under the same id is refused; the batch run replays.
 */
class BatchOperationTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	private WorkflowEngine engine() {
		return this.engines.start(this.engines.builder().register(BatchFixture.Target.class, BatchFixture.Other.class));
	}

	private WorkflowEngine engine(WorkflowInterceptor interceptor) {
		return this.engines.start(this.engines.builder()
			.register(BatchFixture.Target.class, BatchFixture.Other.class)
			.interceptor(interceptor));
	}

	@Test
	void cancelReachesEveryOpenMatchingRunAndSkipsClosedOnes() {
		WorkflowClient client = engine().client();
		for (int i = 0; i < 5; i++) {
			target(client, "c-" + i, "a");
		}
		target(client, "other-1", "a");
		client.handle("c-4").terminate("closed before the batch");

		BatchStatus started = client.startBatch(BatchRequest.cancel(WorkflowFilter.all().workflowIdPrefix("c-"), "tidy")
			.withBatchId("cancel-1")
			.withPageSize(2));

		assertThat(started.batchId()).isEqualTo("cancel-1");
		BatchStatus done = closed(client, "cancel-1");
		assertThat(done.state()).isEqualTo(BatchState.COMPLETED);
		assertThat(done.closedAt()).isNotNull();
		assertThat(List.of(done.total(), done.processed(), done.succeeded(), done.skipped(), done.failed()))
			.containsExactly(5L, 5L, 4L, 1L, 0L);
		for (int i = 0; i < 4; i++) {
			String id = "c-" + i;
			await().until(() -> client.handle(id).describe().status() == WorkflowStatus.CANCELED);
		}
		assertThat(client.handle("c-4").describe().status()).isEqualTo(WorkflowStatus.TERMINATED);
		assertThat(client.handle("other-1").describe().status()).isEqualTo(WorkflowStatus.RUNNING);
	}

	@Test
	void terminateFollowsTypeStatusAndSearchAttributes() {
		WorkflowClient client = engine().client();
		for (int i = 0; i < 3; i++) {
			target(client, "ta-" + i, "a");
			target(client, "tb-" + i, "b");
		}
		WorkflowFilter filter = WorkflowFilter.ofType("batch-target").status(WorkflowStatus.RUNNING).eq("group", "a");

		BatchStatus done = closed(client,
				client.startBatch(BatchRequest.terminate(filter, "group a is obsolete")).batchId());

		assertThat(done.succeeded()).isEqualTo(3);
		assertThat(done.total()).isEqualTo(3);
		for (int i = 0; i < 3; i++) {
			assertThat(client.handle("ta-" + i).describe().status()).isEqualTo(WorkflowStatus.TERMINATED);
			assertThat(client.handle("tb-" + i).describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		}
		// the batch's own run matched no filter of the application and stays out of its
		// counts
		assertThat(client.handle(BatchWorkflow.workflowId(done.batchId())).describe().workflowType())
			.isEqualTo("durable-batch");
	}

	@Test
	void signalReachesEachRunOnceAndAFailureIsCountedWithItsRun() {
		WorkflowEngine engine = engine();
		WorkflowClient client = engine.client();
		for (int i = 0; i < 4; i++) {
			target(client, "s-" + i, "a");
		}
		client.start("batch-other", null, StartOptions.withId("s-other"));

		BatchStatus done = closed(client, client
			.startBatch(
					BatchRequest.signal(WorkflowFilter.all().workflowIdPrefix("s-"), "poke", "hello").withPageSize(3))
			.batchId());

		assertThat(List.of(done.total(), done.succeeded(), done.skipped(), done.failed())).containsExactly(5L, 4L, 0L,
				1L);
		assertThat(done.recentFailures()).singleElement().satisfies((failure) -> {
			assertThat(failure.workflowId()).isEqualTo("s-other");
			assertThat(failure.message()).contains("poke");
		});
		for (int i = 0; i < 4; i++) {
			String id = "s-" + i;
			await().until(() -> pokes(client, id).size() == 1);
			assertThat(pokes(client, id)).containsExactly("hello");
		}
		Engines.assertReplays(engine, client.handle(BatchWorkflow.workflowId(done.batchId())).describe().runId());
	}

	@Test
	void resetStartsEachRunOverAndSkipsRunsNoLongerLatest() {
		WorkflowClient client = engine().client();
		WorkflowHandle<List<String>> first = target(client, "r-1", "a");
		WorkflowHandle<List<String>> second = target(client, "r-2", "a");
		first.signal("poke", "before");
		await().until(() -> pokes(client, "r-1").size() == 1);
		UUID firstRun = first.runId();

		BatchStatus done = closed(client,
				client
					.startBatch(BatchRequest.reset(WorkflowFilter.all().workflowIdPrefix("r-"),
							ResetPoint.LAST_WORKFLOW_TASK, "redo"))
					.batchId());

		assertThat(List.of(done.total(), done.succeeded(), done.failed())).containsExactly(2L, 2L, 0L);
		assertThat(client.handle("r-1").describe().runId()).isNotEqualTo(firstRun);
		assertThat(client.handle("r-2").describe().runId()).isNotEqualTo(second.runId());
		// the signal received before the last task is delivered again: nothing is lost
		await().until(() -> pokes(client, "r-1").equals(List.of("before")));
		assertThat(client.handle("r-1", firstRun).describe().status()).isEqualTo(WorkflowStatus.TERMINATED);
		// a second batch over the old (pinned) runs only: each is no longer the latest of
		// its id
		BatchStatus again = closed(client,
				client.startBatch(BatchRequest.reset(
						WorkflowFilter.all().workflowIdPrefix("r-").status(WorkflowStatus.TERMINATED),
						ResetPoint.FIRST_WORKFLOW_TASK, "again"))
					.batchId());
		assertThat(List.of(again.total(), again.succeeded(), again.skipped())).containsExactly(2L, 0L, 2L);
	}

	@Test
	void theSameBatchIdAndRequestReturnTheBatchAndAnotherRequestIsRefused() {
		WorkflowClient client = engine().client();
		target(client, "i-1", "a");
		Instant from = Instant.parse("2025-01-01T00:00:00Z");
		WorkflowFilter filter = WorkflowFilter.all()
			.workflowIdPrefix("i-")
			.status(WorkflowStatus.RUNNING, WorkflowStatus.FAILED)
			.startedBetween(from, null)
			.eq("group", "a")
			.ge("since", from)
			.in("n", List.of(1L, 2L));
		BatchRequest request = BatchRequest.signal(filter, "poke", "once").withBatchId("same");

		BatchStatus first = client.startBatch(request);
		BatchStatus again = client.startBatch(BatchRequest.signal(filter, "poke", "once").withBatchId("same"));

		assertThat(again.batchId()).isEqualTo("same");
		assertThat(again.createdAt()).isEqualTo(first.createdAt());
		assertThat(again.request().filter()).isEqualTo(filter);
		assertThat(this.engines.count("batch")).isEqualTo(1);
		assertThatThrownBy(() -> client.startBatch(BatchRequest.signal(filter, "poke", "twice").withBatchId("same")))
			.isInstanceOf(BatchIdConflictException.class)
			.hasMessageContaining("same");
		assertThatThrownBy(() -> client.startBatch(BatchRequest.terminate(filter, null).withBatchId("same")))
			.isInstanceOf(BatchIdConflictException.class);
		closed(client, "same");
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema
					+ ".workflow_run WHERE workflow_type = 'durable-batch'", Integer.class))
			.isEqualTo(1);
	}

	@Test
	void describeListAndBadInput() {
		WorkflowClient client = engine().client();
		client.startBatch(BatchRequest.cancel(WorkflowFilter.all().workflowIdPrefix("none-"), null).withBatchId("b1"));
		this.engines.clock.advance(Duration.ofSeconds(1));
		client.startBatch(BatchRequest.cancel(WorkflowFilter.all().workflowIdPrefix("none-"), null).withBatchId("b2"));

		assertThat(client.listBatches(10)).extracting(BatchStatus::batchId).containsExactly("b2", "b1");
		assertThat(client.listBatches(1)).extracting(BatchStatus::batchId).containsExactly("b2");
		assertThat(closed(client, "b1").total()).isZero();
		assertThat(client.describeBatch("b1").operation()).isEqualTo(BatchOperation.CANCEL);
		assertThatThrownBy(() -> client.describeBatch("nope")).isInstanceOf(BatchNotFoundException.class);
		assertThatThrownBy(() -> client.cancelBatch("nope")).isInstanceOf(BatchNotFoundException.class);
		assertThatThrownBy(
				() -> client.startBatch(BatchRequest.cancel(WorkflowFilter.all(), null).withBatchId("bad id")))
			.isInstanceOf(InvalidWorkflowIdException.class);
		assertThatThrownBy(() -> BatchRequest.signal(WorkflowFilter.all(), " ", null))
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> BatchRequest.cancel(WorkflowFilter.all(), null).withPageSize(0))
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> client.listBatches(0)).isInstanceOf(IllegalArgumentException.class);
		assertThat(this.engines.count("batch")).isEqualTo(2);
		assertThat(engine().workflowTypes()).extracting(WorkflowTypeInfo::name).doesNotContain("durable-batch");
	}

	@Test
	void aCanceledBatchStopsAfterThePageUnderWay() throws Exception {
		CountDownLatch blocked = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		WorkflowClient client = engine(new WorkflowInterceptor() {
			@Override
			public <R> R interceptClient(ClientCall call, Supplier<R> next) {
				R result = next.get();
				if (call.operation() == ClientOperation.TERMINATE && "k-2".equals(call.workflowId())) {
					blocked.countDown();
					awaitLatch(release);
				}
				return result;
			}
		}).client();
		for (int i = 0; i < 3; i++) {
			target(client, "k-" + i, "a");
		}
		client.startBatch(BatchRequest.terminate(WorkflowFilter.all().workflowIdPrefix("k-"), null)
			.withBatchId("stop")
			.withPageSize(1));
		assertThat(blocked.await(30, TimeUnit.SECONDS)).isTrue();

		BatchStatus canceled = client.cancelBatch("stop");
		release.countDown();

		assertThat(canceled.state()).isEqualTo(BatchState.CANCELED);
		await().until(() -> client.describeBatch("stop").processed() == 1);
		await().until(() -> client.handle(BatchWorkflow.workflowId("stop")).describe().status().isClosed());
		BatchStatus after = client.describeBatch("stop");
		assertThat(after.state()).isEqualTo(BatchState.CANCELED);
		assertThat(after.processed()).isEqualTo(1);
		// newest first: k-2 was terminated, the older ones were never taken
		assertThat(client.handle("k-1").describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(client.handle("k-0").describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(client.cancelBatch("stop").state()).isEqualTo(BatchState.CANCELED);
	}

	private static void awaitLatch(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
