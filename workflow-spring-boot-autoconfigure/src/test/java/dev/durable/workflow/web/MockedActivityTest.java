package dev.durable.workflow.web;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

import dev.durable.workflow.web.app.OrderWorkflow;
import dev.durable.workflow.web.app.Pricing;
import dev.durable.workflow.web.app.WebTestApplication;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;

/** An activity bean replaced by a Mockito mock is still called through the engine. */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "durable.workflow.schema=mocked", "durable.workflow.embedded-postgres.enabled=false" })
class MockedActivityTest {

	@MockitoBean
	private Pricing pricing;

	@Autowired
	private WorkflowClient client;

	@Test
	void theMockAnswersAndTheCallIsRecorded() {
		given(this.pricing.price("tea", 3)).willReturn(42);
		this.client.start(OrderWorkflow::run, new OrderWorkflow.Order("tea", 3), StartOptions.withId("mocked-1"));
		this.client.handle("mocked-1").signal("finish", null);
		assertThat(this.client.handle("mocked-1", String.class).result(Duration.ofSeconds(30)))
			.isEqualTo("3 x tea for 42 notes []");
		verify(this.pricing).price("tea", 3);
		assertThat(this.client.handle("mocked-1").history()).extracting(HistoryEvent::type)
			.contains("ACTIVITY_SCHEDULED", "ACTIVITY_COMPLETED");
	}

}
