package dev.durable.workflow.start;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowIdReusePolicy;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.DebounceOptions;
import dev.durable.workflow.client.DebouncedStart;
import dev.durable.workflow.client.InvalidWorkflowIdException;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Debounced starts: calls with one key within the delay collapse into one run with the
 * last input, started once the calls stop for the delay or when the window reaches its
 * maximum wait; calls from two nodes on one database collapse too, and exactly one run
 * starts. Time is the engine's settable clock.
 */
class DebounceTest {

	private static final Duration DELAY = Duration.ofSeconds(10);

	private static final Duration MAX_WAIT = Duration.ofSeconds(25);

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Workflow("reindex")
	public static class ReindexWorkflow {

		@WorkflowRun
		public String run(String what) {
			return "reindexed " + what;
		}

	}

	private WorkflowEngine engine() {
		return this.engines.start(this.engines.builder().register(ReindexWorkflow.class));
	}

	private int runs() {
		return this.engines.count("workflow_run");
	}

	private int windows() {
		return this.engines.count("debounce");
	}

	private static DebounceOptions options(String key) {
		return DebounceOptions.of(key, DELAY, MAX_WAIT);
	}

	@Test
	void callsWithinTheDelayCollapseIntoOneRunWithTheLastInput() {
		WorkflowEngine engine = engine();
		WorkflowClient client = engine.client();
		DebouncedStart first = client.debounce(ReindexWorkflow::run, "a", options("catalog"));
		this.engines.clock.advance(Duration.ofSeconds(4));
		DebouncedStart second = client.debounce(ReindexWorkflow::run, "b", options("catalog"));
		this.engines.clock.advance(Duration.ofSeconds(4));
		DebouncedStart third = client.debounce(ReindexWorkflow::run, "c", options("catalog"));
		assertThat(List.of(first.workflowId(), second.workflowId())).containsOnly(third.workflowId());
		assertThat(third.calls()).isEqualTo(3);
		assertThat(third.startsAt()).isEqualTo(this.engines.clock.instant().plus(DELAY));
		// quiet for less than the delay: nothing starts
		this.engines.clock.advance(Duration.ofSeconds(9));
		assertThat(runs()).isZero();
		this.engines.clock.advance(Duration.ofSeconds(1));
		await().until(() -> runs() == 1);
		assertThat(client.handle(third.workflowId(), String.class).result(Duration.ofSeconds(20)))
			.isEqualTo("reindexed c");
		assertThat(windows()).isZero();
		// the run a window started is an ordinary run: its history replays
		Engines.assertReplays(engine, client.handle(third.workflowId()).describe().runId());
		// a call after the run started opens a new window, with a new run
		DebouncedStart next = client.debounce(ReindexWorkflow::run, "d", options("catalog"));
		assertThat(next.workflowId()).isNotEqualTo(third.workflowId());
		assertThat(next.calls()).isOne();
		this.engines.clock.advance(DELAY);
		await().until(() -> runs() == 2);
		assertThat(client.handle(next.workflowId(), String.class).result(Duration.ofSeconds(20)))
			.isEqualTo("reindexed d");
	}

	@Test
	void aSteadyStreamOfCallsStartsARunAtTheMaximumWait() {
		WorkflowClient client = engine().client();
		DebouncedStart call = null;
		// a call every 5 s, each before the 10 s delay is up: only the 25 s bound fires
		// the window
		for (int second = 0; second <= 20; second += 5) {
			call = client.debounce(ReindexWorkflow::run, "at " + second, options("feed"));
			this.engines.clock.advance(Duration.ofSeconds(5));
			if (second < 20) {
				assertThat(runs()).as("runs %d s after the first call", second + 5).isZero();
			}
		}
		// 25 s after the first call
		assertThat(call.startsAt()).isEqualTo(this.engines.clock.instant());
		await().until(() -> runs() == 1);
		assertThat(client.handle(call.workflowId(), String.class).result(Duration.ofSeconds(20)))
			.isEqualTo("reindexed at 20");
	}

	@Test
	void keysAreIndependent() {
		WorkflowClient client = engine().client();
		DebouncedStart a = client.debounce(ReindexWorkflow::run, "a", options("key-a"));
		DebouncedStart b = client.debounce(ReindexWorkflow::run, "b", options("key-b"));
		assertThat(a.workflowId()).isNotEqualTo(b.workflowId());
		this.engines.clock.advance(DELAY);
		await().until(() -> runs() == 2);
		assertThat(client.handle(a.workflowId(), String.class).result(Duration.ofSeconds(20))).isEqualTo("reindexed a");
		assertThat(client.handle(b.workflowId(), String.class).result(Duration.ofSeconds(20))).isEqualTo("reindexed b");
	}

	@Test
	void callsFromTwoNodesOnOneDatabaseStartOneRun() throws Exception {
		WorkflowClient one = engine().client();
		WorkflowClient two = engine().client();
		List<Callable<DebouncedStart>> calls = new ArrayList<>();
		for (int i = 0; i < 40; i++) {
			WorkflowClient client = (i % 2 == 0) ? one : two;
			String input = "call " + i;
			calls.add(() -> client.debounce(ReindexWorkflow::run, input, options("shared")));
		}
		List<DebouncedStart> results = new ArrayList<>();
		try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
			for (Future<DebouncedStart> result : pool.invokeAll(calls)) {
				results.add(result.get());
			}
		}
		assertThat(results).extracting(DebouncedStart::workflowId).containsOnly(results.get(0).workflowId());
		assertThat(results).extracting(DebouncedStart::calls)
			.containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.rangeClosed(1, 40).boxed().toList());
		// the last call to reach the database (the 40th) gave the run its input
		int lastCall = java.util.stream.IntStream.range(0, 40)
			.filter((i) -> results.get(i).calls() == 40)
			.findFirst()
			.getAsInt();
		this.engines.clock.advance(DELAY);
		await().until(() -> windows() == 0);
		assertThat(runs()).isOne();
		assertThat(one.handle(results.get(0).workflowId(), String.class).result(Duration.ofSeconds(20)))
			.isEqualTo("reindexed call " + lastCall);
	}

	@Test
	void theStartOptionsApplyAndAWorkflowIdInUseIsRefusedOnce() {
		WorkflowEngine engine = engine();
		WorkflowClient client = engine.client();
		DebounceOptions withId = options("named").withStartOptions(StartOptions.withId("reindex-catalog"));
		DebouncedStart call = client.debounce(ReindexWorkflow::run, "x", withId);
		assertThat(call.workflowId()).isEqualTo("reindex-catalog");
		this.engines.clock.advance(DELAY);
		await().until(() -> runs() == 1);
		assertThat(client.handle("reindex-catalog", String.class).result(Duration.ofSeconds(20)))
			.isEqualTo("reindexed x");
		// the id policy refuses a second run of the id: the window closes without a run,
		// once
		DebounceOptions rejecting = options("named").withStartOptions(StartOptions.builder()
			.workflowId("reindex-catalog")
			.idReusePolicy(WorkflowIdReusePolicy.REJECT_DUPLICATE)
			.build());
		client.debounce(ReindexWorkflow::run, "y", rejecting);
		this.engines.clock.advance(DELAY);
		await().until(() -> windows() == 0);
		assertThat(runs()).isOne();
		assertThat(client.handle("reindex-catalog", String.class).result(Duration.ofSeconds(20)))
			.isEqualTo("reindexed x");
	}

	@Test
	void badCallsAreRefusedAndStoreNothing() {
		WorkflowClient client = engine().client();
		assertThatThrownBy(() -> DebounceOptions.of("bad key!", DELAY, MAX_WAIT))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("debounce key");
		assertThatThrownBy(() -> DebounceOptions.of("k", Duration.ZERO, MAX_WAIT))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("delay must be positive");
		assertThatThrownBy(() -> DebounceOptions.of("k", DELAY, Duration.ofSeconds(1)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("maxWait");
		assertThatThrownBy(() -> options("k").withStartOptions(StartOptions.builder().startDelay(DELAY).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("startDelay");
		assertThatThrownBy(() -> client.debounce("no-such-type", "x", options("k")))
			.isInstanceOf(UnknownWorkflowTypeException.class);
		assertThatThrownBy(() -> client.debounce(ReindexWorkflow::run, "x",
				options("k").withStartOptions(StartOptions.withId("bad id!"))))
			.isInstanceOf(InvalidWorkflowIdException.class);
		assertThat(windows()).isZero();
	}

}
