package dev.durable.workflow.web;

import java.lang.reflect.Type;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.web.app.OrderWorkflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code GET /durable/workflow-types} tells what each named handler takes, so that the
 * dashboard can show it where a payload is typed: the Java type without package names and
 * a JSON skeleton.
 */
class HandlerPayloadHintsTest extends RestApiTestSupport {

	private static final String ORDER = "$[?(@.type == 'order')].payloads[?(@.name == '%s')]";

	@Test
	void eachNamedHandlerHasItsPayloadTypeAndAnExample() throws Exception {
		this.mvc.perform(get("/durable/workflow-types"))
			.andExpect(status().isOk())
			.andExpect(jsonPath(ORDER.formatted("setQuantity") + ".kind").value(contains("update")))
			.andExpect(jsonPath(ORDER.formatted("setQuantity") + ".payloadType").value(contains("int")))
			.andExpect(jsonPath(ORDER.formatted("setQuantity") + ".example").value(contains(0)))
			.andExpect(jsonPath(ORDER.formatted("addNote") + ".payloadType").value(contains("String")))
			.andExpect(jsonPath(ORDER.formatted("addNote") + ".example").value(contains("")))
			.andExpect(jsonPath(ORDER.formatted("finish") + ".payloadType").value(contains("none")))
			.andExpect(jsonPath(ORDER.formatted("notes") + ".kind").value(contains("query")));
	}

	record Line(String sku, int quantity, double price, WorkflowStatus state, Instant due, List<String> tags,
			Map<String, Integer> extra) {
	}

	record Basket(OrderWorkflow.Order order, List<Line> lines, Object anything) {
	}

	@Test
	void aRecordIsAnObjectOfItsComponentsAndACollectionAnArrayOfOne() throws Exception {
		Type basket = Basket.class;
		@SuppressWarnings("unchecked")
		Map<String, Object> example = (Map<String, Object>) PayloadExamples.example(basket);
		assertThat(example).containsEntry("order", Map.of("item", "", "quantity", 0)).containsEntry("anything", null);
		assertThat(example.get("lines")).isEqualTo(List.of(Map.of("sku", "", "quantity", 0, "price", 0.0, "state",
				"RUNNING", "due", "2030-01-01T00:00:00Z", "tags", List.of(""), "extra", Map.of())));
		assertThat(PayloadExamples.name(Basket.class.getRecordComponents()[1].getGenericType()))
			.isEqualTo("List<HandlerPayloadHintsTest.Line>");
	}

}
