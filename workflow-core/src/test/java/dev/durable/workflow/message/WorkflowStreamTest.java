package dev.durable.workflow.message;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.WorkflowStream;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.ResetPoint;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.StreamEntry;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Workflows.stream(key).write/close and WorkflowHandle.readStream: values in order from
 * any offset, live; a replay or a retried task writes nothing twice.
 */
class WorkflowStreamTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** One step of progress. */
	public record Progress(int step, String note) {
	}

	@Workflow(value = "stream-progress", receives = "more")
	public static class ProgressWorkflow {

		@WorkflowRun
		public String run(Integer steps) {
			WorkflowStream progress = Workflows.stream("progress");
			for (int i = 0; i < steps; i++) {
				progress.write(new Progress(i, "first part"));
			}
			Workflows.receive("more", String.class);
			for (int i = steps; i < steps * 2; i++) {
				Workflows.stream("progress").write(new Progress(i, "second part"));
			}
			progress.close();
			try {
				progress.write(new Progress(-1, "after close"));
				return "written after close";
			}
			catch (IllegalStateException ex) {
				return "closed at " + progress.nextOffset();
			}
		}

	}

	/**
	 * Writes, then fails its workflow task (a bug) until fixed: the write never
	 * committed.
	 */
	@Workflow("stream-crashing")
	public static class CrashingWorkflow {

		static volatile boolean fixed;

		static final List<Long> OFFSETS = new CopyOnWriteArrayList<>();

		@WorkflowRun
		public String run() {
			OFFSETS.add(Workflows.stream("log").write("before the crash"));
			if (!fixed) {
				throw new IllegalStateException("the worker dies before the commit");
			}
			Workflows.stream("log").write("after");
			return "ok";
		}

	}

	/** Never closes its stream: it ends with the run. */
	@Workflow("stream-unclosed")
	public static class UnclosedWorkflow {

		@WorkflowRun
		public String run() {
			Workflows.stream("tokens").write("hello");
			Workflows.sleep(Duration.ofMinutes(1));
			Workflows.stream("tokens").write("world");
			return "done";
		}

	}

	/** Writes, waits an hour, writes again and closes. */
	@Workflow("stream-timed")
	public static class TimedWorkflow {

		@WorkflowRun
		public String run() {
			WorkflowStream log = Workflows.stream("log");
			log.write("first");
			Workflows.sleep(Duration.ofHours(1));
			log.write("second");
			log.close();
			return "done";
		}

	}

	private WorkflowEngine node(StallingHooks hooks) {
		return this.engines.start(this.engines.builder().register(TimedWorkflow.class).hooks(hooks));
	}

	private List<String> logRows() {
		return this.engines.jdbc()
			.queryForList("SELECT stream_offset || ':' || coalesce(convert_from(value, 'UTF8'), 'end')" + " FROM "
					+ this.engines.schema + ".workflow_stream ORDER BY stream_offset", String.class);
	}

	@Test
	void aNodeThatDiesBetweenTheWriteAndTheCommitWritesNothingAndTheNextNodeWritesOnce() throws Exception {
		StallingHooks dying = new StallingHooks();
		WorkflowEngine a = node(dying);
		WorkflowHandle<String> handle = a.client().start(TimedWorkflow::run, StartOptions.withId("timed"));
		await().until(() -> this.engines.count("timer") == 1);
		assertThat(logRows()).containsExactly("0:\"first\"");

		// node a freezes after its code wrote "second" and closed the stream, before the
		// commit
		dying.stallHeartbeats = true;
		dying.stallCommits = true;
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(dying.commitStalled.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
		assertThat(logRows()).as("nothing of the stalled task is visible").containsExactly("0:\"first\"");

		// node b takes the run over: it replays the first write (storing nothing) and
		// writes the rest once
		WorkflowEngine b = node(new StallingHooks());
		// (through b: a, its heartbeat stalled past its lease, has fenced itself and
		// answers no calls)
		assertThat(b.client().handle("timed", String.class).result(Duration.ofSeconds(20))).isEqualTo("done");
		assertThat(logRows()).containsExactly("0:\"first\"", "1:\"second\"", "2:end");

		// a wakes up: its commit is refused, its writes never appear
		dying.release();
		await().until(() -> a.cachedRuns() == 0);
		assertThat(logRows()).containsExactly("0:\"first\"", "1:\"second\"", "2:end");
		Engines.assertReplays(b, handle.runId());
	}

	@Test
	void aCommitLostWithItsConnectionIsRetriedAndWritesOnce() {
		StallingHooks hooks = new StallingHooks();
		hooks.failCommitNumber = 2;
		WorkflowEngine a = node(hooks);
		WorkflowHandle<String> handle = a.client().start(TimedWorkflow::run, StartOptions.withId("lost-commit"));
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("done");
		assertThat(logRows()).containsExactly("0:\"first\"", "1:\"second\"", "2:end");
		Engines.assertReplays(a, handle.runId());
	}

	private WorkflowEngine engine() {
		return this.engines.start(this.engines.builder()
			.register(ProgressWorkflow.class)
			.register(CrashingWorkflow.class)
			.register(UnclosedWorkflow.class));
	}

	private static List<Integer> steps(Stream<StreamEntry<Progress>> stream) {
		try (stream) {
			return stream.map((e) -> {
				assertThat(e.offset()).isEqualTo(e.value().step());
				return e.value().step();
			}).toList();
		}
	}

	@Test
	void aReaderGetsTheValuesInOrderLiveUntilTheStreamCloses() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client().start(ProgressWorkflow::run, 3, StartOptions.withId("p-1"));
		CompletableFuture<List<Integer>> live = CompletableFuture
			.supplyAsync(() -> steps(handle.readStream("progress", 0, Progress.class)));
		await().until(() -> this.engines.count("workflow_stream") == 3
				&& EngineInternals.node(engine).waiters().waiting() == 1);
		assertThat(live).as("blocked for values not written yet").isNotDone();
		try (Stream<StreamEntry<Progress>> firstTwo = handle.readStream("progress", 1, Progress.class)) {
			assertThat(firstTwo.limit(2).map((e) -> e.value().step()).toList()).containsExactly(1, 2);
		}
		handle.signal("more", "go");
		assertThat(live.join()).containsExactly(0, 1, 2, 3, 4, 5);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("closed at 6");
		assertThat(steps(handle.readStream("progress", 4, Progress.class))).as("from any offset, on a closed run")
			.containsExactly(4, 5);
		assertThat(steps(handle.readStream("progress", 99, Progress.class))).isEmpty();
		assertThat(handle.readStream("other", 0).toList()).as("a stream never written").isEmpty();
	}

	@Test
	void aReplayOnAnotherNodeWritesNothingTwice() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client().start(ProgressWorkflow::run, 2, StartOptions.withId("p-2"));
		await().until(() -> this.engines.count("workflow_stream") == 2);
		engine.shutdown();

		// the next node replays the first task (its two writes) before it takes the
		// signal
		WorkflowEngine next = engine();
		WorkflowHandle<Object> again = next.client().handle("p-2");
		again.signal("more", "go");
		assertThat(again.result(String.class)).isEqualTo("closed at 4");
		assertThat(
				this.engines.jdbc()
					.queryForList("SELECT stream_offset FROM " + this.engines.schema
							+ ".workflow_stream ORDER BY stream_offset", Long.class))
			.as("four values and the end, once each")
			.containsExactly(0L, 1L, 2L, 3L, 4L);
		assertThat(steps(again.readStream("progress", 0, Progress.class))).containsExactly(0, 1, 2, 3);
		assertThat(again.history()).extracting("type").filteredOn("STREAM_WRITE"::equals).hasSize(4);
		Engines.assertReplays(next, handle.runId());
	}

	@Test
	void aWriteWhoseTaskFailedBeforeItsCommitIsWrittenOnceByTheRetry() {
		CrashingWorkflow.fixed = false;
		CrashingWorkflow.OFFSETS.clear();
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client().start(CrashingWorkflow::run, StartOptions.withId("crash"));
		await().until(() -> handle.describe().taskFailure() != null);
		assertThat(this.engines.count("workflow_stream")).as("nothing of the failed task is stored").isZero();
		assertThat(handle.readStream("log", 0, String.class).limit(0).toList()).isEmpty();

		CrashingWorkflow.fixed = true;
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("ok");
		assertThat(CrashingWorkflow.OFFSETS).as("every attempt wrote at offset 0")
			.containsOnly(0L)
			.hasSizeGreaterThan(1);
		assertThat(handle.readStream("log", 0, String.class).map(StreamEntry::value).toList())
			.containsExactly("before the crash", "after");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aResetRunKeepsTheValuesOfTheHistoryItKeeps() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client().start(ProgressWorkflow::run, 2, StartOptions.withId("p-reset"));
		await().until(() -> this.engines.count("workflow_stream") == 2);
		handle.signal("more", "go");
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("closed at 4");

		// the last task (the second half and the close) runs again; the first task's
		// writes are kept
		java.util.UUID reset = handle.reset(ResetPoint.LAST_WORKFLOW_TASK, "again");
		WorkflowHandle<Object> again = engine.client().handle("p-reset", reset);
		assertThat(again.result(String.class)).isEqualTo("closed at 4");
		assertThat(steps(again.readStream("progress", 0, Progress.class))).containsExactly(0, 1, 2, 3);
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".workflow_stream WHERE run_id = ?",
					Integer.class, reset))
			.isEqualTo(5);
	}

	@Test
	void anUnclosedStreamEndsWithTheRun() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client().start(UnclosedWorkflow::run, StartOptions.withId("u-1"));
		CompletableFuture<List<String>> live = CompletableFuture
			.supplyAsync(() -> handle.readStream("tokens", 0, String.class).map(StreamEntry::value).toList());
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofMinutes(1));
		assertThat(live.join()).containsExactly("hello", "world");
	}

	@Test
	void aPublisherDeliversAsRequested() throws Exception {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client().start(ProgressWorkflow::run, 2, StartOptions.withId("p-3"));
		List<Integer> received = new CopyOnWriteArrayList<>();
		CompletableFuture<Void> completed = new CompletableFuture<>();
		List<Flow.Subscription> subscription = new ArrayList<>();
		handle.publishStream("progress", 0, Progress.class).subscribe(new Flow.Subscriber<>() {

			@Override
			public void onSubscribe(Flow.Subscription s) {
				subscription.add(s);
				s.request(1);
			}

			@Override
			public void onNext(StreamEntry<Progress> item) {
				received.add(item.value().step());
			}

			@Override
			public void onError(Throwable throwable) {
				completed.completeExceptionally(throwable);
			}

			@Override
			public void onComplete() {
				completed.complete(null);
			}

		});
		await().until(() -> received.size() == 1);
		// a second value is there to deliver: one request, one value (a wrong publisher
		// sends more)
		await().until(() -> this.engines.count("workflow_stream") == 2);
		await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> received.size() == 1);
		assertThat(received).containsExactly(0);
		subscription.get(0).request(Long.MAX_VALUE);
		handle.signal("more", "go");
		completed.get(10, java.util.concurrent.TimeUnit.SECONDS);
		assertThat(received).containsExactly(0, 1, 2, 3);
	}

	@Test
	void retentionDeletesTheEventsAndStreamsOfTheRunsItDeletes() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> kept = engine.client().start(ProgressWorkflow::run, 1, StartOptions.withId("kept"));
		WorkflowHandle<String> done = engine.client().start(UnclosedWorkflow::run, StartOptions.withId("done"));
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofMinutes(1));
		assertThat(done.result(Duration.ofSeconds(10))).isEqualTo("done");
		this.engines.jdbc()
			.update("INSERT INTO " + this.engines.schema + ".workflow_event (run_id, event_key, namespace,"
					+ " workflow_id, value, updated_at) VALUES (?, 'status', 'default', 'done', '\"x\"'::bytea, now())",
					done.runId());
		this.engines.clock.advance(Duration.ofDays(8));
		assertThat(EngineInternals.node(engine).retainOnce()).isEqualTo(1);
		assertThat(this.engines.jdbc()
			.queryForList("SELECT DISTINCT run_id FROM " + this.engines.schema + ".workflow_stream",
					java.util.UUID.class))
			.as("the open run's stream stays")
			.containsExactly(kept.runId());
		assertThat(this.engines.count("workflow_event")).isZero();
	}

	@Test
	void badOffsetsKeysAndRunsAreRefused() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client().start(ProgressWorkflow::run, 1, StartOptions.withId("p-4"));
		assertThatThrownBy(() -> handle.readStream("progress", -1, Progress.class))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("offset");
		assertThatThrownBy(() -> handle.readStream("", 0, Progress.class)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid stream key");
		assertThatThrownBy(() -> engine.client().handle("nobody").readStream("progress", 0))
			.isInstanceOf(WorkflowNotFoundException.class);
		assertThatThrownBy(() -> engine.client().handle("nobody").publishStream("progress", 0, Object.class))
			.isInstanceOf(WorkflowNotFoundException.class);
	}

}
