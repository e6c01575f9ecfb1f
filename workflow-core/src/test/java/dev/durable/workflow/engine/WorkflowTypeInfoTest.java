package dev.durable.workflow.engine;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.payload.EncodedValue;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public read model of registered workflow types: names, payload types and handlers.
 */
class WorkflowTypeInfoTest {

	/** An order line. */
	public record Line(String sku, int quantity) {
	}

	@Workflow("typed-order")
	public static class Order {

		@WorkflowRun
		public Integer run(Line first) {
			return first.quantity();
		}

		@SignalMethod
		public void add(Line line) {
		}

		@SignalMethod
		public void cancel() {
		}

		@QueryMethod
		public List<Line> lines() {
			return List.of();
		}

		@UpdateMethod(dynamic = true)
		public Object anyUpdate(String name, EncodedValue payload) {
			return name;
		}

	}

	@Workflow
	public static class Bare {

		@WorkflowRun
		public void run() {
		}

	}

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Test
	void aNodeListsItsTypesByNameWithTheirHandlersAndPayloadTypes() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(Order.class, Bare.class));

		assertThat(engine.workflowTypes()).extracting(WorkflowTypeInfo::name).containsExactly("Bare", "typed-order");
		WorkflowTypeInfo order = engine.workflowType("typed-order").orElseThrow();
		assertThat(order.workflowClass()).isEqualTo(Order.class);
		assertThat(order.inputType()).isEqualTo(Line.class);
		assertThat(order.resultType()).isEqualTo(Integer.class);
		assertThat(order.named(HandlerKind.SIGNAL)).extracting(WorkflowTypeInfo.Handler::name)
			.containsExactlyInAnyOrder("add", "cancel");
		assertThat(order.handler(HandlerKind.SIGNAL, "add").orElseThrow().payloadType()).isEqualTo(Line.class);
		assertThat(order.handler(HandlerKind.SIGNAL, "cancel").orElseThrow().payloadType()).isNull();
		assertThat(order.handler(HandlerKind.QUERY, "lines").orElseThrow().resultType())
			.hasToString("java.util.List<" + Line.class.getName() + ">");
		assertThat(order.handler(HandlerKind.SIGNAL, "add").orElseThrow().resultType()).isNull();
		assertThat(order.handler(HandlerKind.QUERY, "total")).isEmpty();
		// a name no update handler has goes to the dynamic one
		assertThat(order.hasDynamic(HandlerKind.UPDATE)).isTrue();
		WorkflowTypeInfo.Handler dynamic = order.handler(HandlerKind.UPDATE, "anything").orElseThrow();
		assertThat(dynamic.dynamic()).isTrue();
		assertThat(dynamic.payloadType()).isEqualTo(EncodedValue.class);

		WorkflowTypeInfo bare = engine.workflowType("Bare").orElseThrow();
		assertThat(bare.inputType()).isNull();
		assertThat(bare.handlers()).isEmpty();
		assertThat(engine.workflowType("unknown")).isEmpty();
	}

	@Test
	void settingsAreWhatTheBuilderSetAndRejectAHeartbeatNoShorterThanDeadAfter() {
		WorkflowEngine engine = this.engines.builder().worker(false).maxCachedRuns(7).build();
		assertThat(engine.settings().maxCachedRuns()).isEqualTo(7);
		assertThat(engine.settings().workerEnabled()).isFalse();
		org.assertj.core.api.Assertions
			.assertThatThrownBy(() -> this.engines.builder()
				.heartbeatInterval(java.time.Duration.ofSeconds(2))
				.deadAfter(java.time.Duration.ofSeconds(2))
				.build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("must be shorter than deadAfter");
	}

}
