package dev.durable.workflow.message;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A signal against a timer: receive with a timeout, and a confirmation raced against a
 * deadline.
 */
@Timeout(120)
class SignalDeliveryTimeoutTest extends SignalDeliveryFixture {

	// ---- receive with a timeout
	// --------------------------------------------------------------

	@Test
	void receiveWithATimeoutReturnsEmptyOnceTheTimeoutPassed() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client().start(TimedReceiver::run, StartOptions.withId("timed-out"));
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofMinutes(9));
		assertThatThrownBy(() -> handle.result(Duration.ofMillis(300)))
			.isInstanceOf(WorkflowHandle.WorkflowTimeoutException.class);
		this.engines.clock.advance(Duration.ofMinutes(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("timed out");
		assertThat(types(handle)).containsSubsequence("TIMER_STARTED", "TIMER_FIRED", "WORKFLOW_COMPLETED");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void receiveWithATimeoutReturnsTheSignalWhenItComesInTime() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client().start(TimedReceiver::run, StartOptions.withId("in-time"));
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofMinutes(5));
		handle.signal("item", "x");
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("got x");
		assertThat(types(handle)).containsSubsequence("TIMER_STARTED", "SIGNAL_RECEIVED", "TIMER_CANCELED",
				"WORKFLOW_COMPLETED");
		assertThat(types(handle)).doesNotContain("TIMER_FIRED");
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- confirmation deadline
	// ---------------------------------------------------------------

	@Test
	void whenTheDeadlineWinsALaterConfirmationIsNotConsumedByTheLosingPromise() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client().start(Deadline::run, StartOptions.withId("deadline-expired"));
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofHours(72));
		await().until(() -> handle.query(Deadline::outcome).equals("expired"));
		assertThat(handle.query(Deadline::confirmReady)).isFalse();

		handle.signal("confirm", "late");
		await().until(() -> handle.query(Deadline::confirmReady));
		assertThat(handle.query(Deadline::outcome)).isEqualTo("expired");

		handle.signal(Deadline::release);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("expired, then received late");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void whenTheConfirmationWinsTheTimerIsIrrelevant() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client().start(Deadline::run, StartOptions.withId("deadline-confirmed"));
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofHours(1));
		handle.signal("confirm", "yes");
		await().until(() -> handle.query(Deadline::outcome).equals("confirmed yes"));
		// the deadline passes later: nothing changes
		this.engines.clock.advance(Duration.ofHours(72));
		await().until(() -> types(handle).contains("TIMER_FIRED") || this.engines.count("timer") == 0);
		assertThat(handle.query(Deadline::outcome)).isEqualTo("confirmed yes");
		handle.signal(Deadline::release);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("confirmed yes");
		Engines.assertReplays(engine, handle.runId());
	}

}
