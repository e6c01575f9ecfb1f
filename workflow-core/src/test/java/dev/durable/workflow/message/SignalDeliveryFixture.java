package dev.durable.workflow.message;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;

import dev.durable.workflow.Promise;
import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.Engines;

/**
 * What the signal delivery tests ({@link SignalDeliveryTest},
 * {@link SignalDeliveryRaceTest}, {@link SignalDeliveryTimeoutTest}) share: the receiving
 * workflows, the engines that run them, and what history and the database hold.
 *
 * <p>
 * The delivery rules of signals without a handler
 * (reference/postgres-signal-delivery.txt, DESIGN 4.2): buffered, FIFO per name,
 * idempotent with a key, rejected by closed runs, and no lost wake-up between a send and
 * the task that parks the run.
 */
abstract class SignalDeliveryFixture {

	final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Receives {@code count} signals named "item", in order. */
	@Workflow(value = "sd-receiver", receives = { "item" })
	public static class Receiver {

		private final List<String> received = new ArrayList<>();

		@WorkflowRun
		public List<String> run(int count) {
			for (int i = 0; i < count; i++) {
				this.received.add(Workflows.receive("item", String.class));
			}
			return this.received;
		}

		@QueryMethod
		public List<String> received() {
			return this.received;
		}

	}

	/**
	 * Sleeps an hour before it asks for anything: every signal sent meanwhile must wait
	 * for it.
	 */
	@Workflow(value = "sd-late", receives = { "item" })
	public static class LateReceiver {

		@WorkflowRun
		public String run() {
			Workflows.sleep(Duration.ofHours(1));
			return Workflows.receive("item", String.class);
		}

	}

	/**
	 * Sleeps, then receives from two names in an order unrelated to the sending order.
	 */
	@Workflow(value = "sd-fifo", receives = { "b", "a" })
	public static class FifoReceiver {

		@WorkflowRun
		public List<String> run() {
			Workflows.sleep(Duration.ofHours(1));
			List<String> taken = new ArrayList<>();
			taken.add(Workflows.receive("b", String.class));
			taken.add(Workflows.receive("a", String.class));
			taken.add(Workflows.receive("a", String.class));
			taken.add(Workflows.receive("a", String.class));
			taken.add(Workflows.receive("b", String.class));
			return taken;
		}

	}

	/** Completes, fails, or waits (to be canceled or terminated). */
	@Workflow(value = "sd-terminal", receives = { "never" })
	public static class Terminal {

		@WorkflowRun
		public String run(String mode) {
			return switch (mode) {
				case "complete" -> "done";
				case "fail" -> throw ApplicationFailure.newNonRetryableFailure("failed on purpose", "Purpose");
				default -> Workflows.receive("never", String.class);
			};
		}

	}

	/** Waits at most ten minutes for a signal. */
	@Workflow(value = "sd-timeout", receives = { "item" })
	public static class TimedReceiver {

		@WorkflowRun
		public String run() {
			Optional<String> value = Workflows.receive("item", String.class, Duration.ofMinutes(10));
			return value.map((v) -> "got " + v).orElse("timed out");
		}

	}

	/**
	 * The confirmation-deadline pattern: a signal raced against a timer. When the timer
	 * wins the signal promise is not consumed: a later "confirm" stays buffered for the
	 * next receive.
	 */
	@Workflow(value = "sd-deadline", receives = { "confirm" })
	public static class Deadline {

		private Promise<String> confirm;

		private String outcome = "waiting";

		private boolean release;

		@WorkflowRun
		public String run() {
			this.confirm = Workflows.signalPromise("confirm", String.class);
			Promise<Void> deadline = Workflows.newTimer(Duration.ofHours(72));
			Promise.anyOf(this.confirm, deadline).get();
			if (this.confirm.isCompleted()) {
				this.outcome = "confirmed " + this.confirm.get();
			}
			else {
				this.outcome = "expired";
			}
			Workflows.await(() -> this.release);
			if (this.outcome.equals("expired")) {
				return "expired, then received " + Workflows.receive("confirm", String.class);
			}
			return this.outcome;
		}

		@SignalMethod
		public void release() {
			this.release = true;
		}

		@QueryMethod
		public String outcome() {
			return this.outcome;
		}

		/**
		 * Whether the losing signal promise sees a buffered signal (it must not have
		 * taken it).
		 */
		@QueryMethod
		public boolean confirmReady() {
			return this.confirm != null && this.confirm.isCompleted();
		}

	}

	WorkflowEngine worker() {
		return worker(this.engines.builder());
	}

	WorkflowEngine worker(WorkflowEngine.Builder builder) {
		return this.engines.start(builder.register(Receiver.class, LateReceiver.class, FifoReceiver.class,
				Terminal.class, TimedReceiver.class, Deadline.class));
	}

	WorkflowEngine clientOnly() {
		return this.engines.start(this.engines.builder().worker(false));
	}

	static List<String> types(WorkflowHandle<?> handle) {
		return handle.history().stream().map(HistoryEvent::type).toList();
	}

	static long count(WorkflowHandle<?> handle, String type) {
		return handle.history().stream().filter((e) -> e.type().equals(type)).count();
	}

	int signalKeys() {
		return this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".dedup WHERE kind = 'SIGNAL'",
					Integer.class);
	}

}
