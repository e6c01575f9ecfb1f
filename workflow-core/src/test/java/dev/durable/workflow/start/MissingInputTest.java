package dev.durable.workflow.start;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.DebounceOptions;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
import dev.durable.workflow.client.schedule.ScheduleSpec;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.MissingInputException;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A start without the input the run method takes could only fail (its first task would
 * meet a {@code null} the code does not expect): every way of starting refuses it and
 * stores nothing, while a {@code @Nullable} parameter and a run method without one start.
 */
class MissingInputTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** An order. */
	public record Order(String item, int quantity) {
	}

	@Workflow("mi-order")
	public static class OrderWorkflow {

		@WorkflowRun
		public String run(Order order) {
			return order.item() + " x" + order.quantity();
		}

	}

	@Workflow("mi-optional")
	public static class OptionalWorkflow {

		@WorkflowRun
		public String run(@Nullable String note) {
			return (note != null) ? note : "none";
		}

	}

	@Workflow("mi-count")
	public static class CountWorkflow {

		@WorkflowRun
		public int run(int count) {
			return count;
		}

	}

	@Workflow("mi-none")
	public static class NoInputWorkflow {

		@WorkflowRun
		public String run() {
			return "done";
		}

	}

	private WorkflowEngine engine() {
		return this.engines.start(this.engines.builder()
			.register(OrderWorkflow.class)
			.register(OptionalWorkflow.class)
			.register(CountWorkflow.class)
			.register(NoInputWorkflow.class));
	}

	@Test
	void everyKindOfStartWithoutTheInputIsRefusedAndStoresNothing() {
		WorkflowClient client = engine().client();
		assertThatThrownBy(() -> client.start(OrderWorkflow::run, null, StartOptions.withId("typed")))
			.isInstanceOf(MissingInputException.class)
			.hasMessageContaining("mi-order")
			.hasMessageContaining("Order")
			.satisfies((ex) -> assertThat(((MissingInputException) ex).field()).isEqualTo("input"));
		assertThatThrownBy(() -> client.start("mi-order", null, StartOptions.withId("by-name")))
			.isInstanceOf(MissingInputException.class);
		assertThatThrownBy(() -> client.start("mi-count", null, StartOptions.withId("primitive")))
			.isInstanceOf(MissingInputException.class);
		assertThatThrownBy(() -> client.signalWithStart("mi-order", null, StartOptions.withId("sws"), "go", null))
			.isInstanceOf(MissingInputException.class);
		assertThatThrownBy(() -> client.debounce("mi-order", null,
				DebounceOptions.of("k", Duration.ofSeconds(5), Duration.ofSeconds(30))))
			.isInstanceOf(MissingInputException.class);
		assertThatThrownBy(
				() -> client.schedules()
					.create("nightly",
							Schedule.of(ScheduleSpec.every(Duration.ofHours(1)),
									ScheduleAction.startWorkflow("mi-order", null))))
			.isInstanceOf(MissingInputException.class);
		assertThat(this.engines.count("workflow_run")).isZero();
		assertThat(this.engines.count("debounce")).isZero();
		assertThat(this.engines.count("schedule")).isZero();
	}

	@Test
	void aNullableParameterAndARunMethodWithoutOneStartWithoutInput() {
		WorkflowClient client = engine().client();
		assertThat(client.start("mi-optional", null, StartOptions.withId("optional")).result(Duration.ofSeconds(10)))
			.isEqualTo("none");
		assertThat(client.start(NoInputWorkflow::run, StartOptions.withId("none")).result(Duration.ofSeconds(10)))
			.isEqualTo("done");
		assertThat(client.start(OrderWorkflow::run, new Order("tea", 2), StartOptions.withId("given"))
			.result(Duration.ofSeconds(10))).isEqualTo("tea x2");
	}

}
