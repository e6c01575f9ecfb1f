package dev.durable.workflow.visibility;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Bad or hostile input to memo, search attributes and listing: rejected, it writes and
 * finds nothing.
 */
class VisibilityBadInputTest extends VisibilityFixture {

	@Test
	void badInputIsRejectedWithClearMessagesAndWritesNothing() {
		WorkflowClient client = engine().client();
		assertThatThrownBy(() -> client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("bad").searchAttributes(Map.of("bad key", "x")).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid search attribute key 'bad key'");
		assertThatThrownBy(() -> client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("bad").searchAttributes(Map.of("k".repeat(65), "x")).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("1-64 letters");
		assertThatThrownBy(() -> client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("bad").searchAttributes(Map.of("id", UUID.randomUUID())).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("'id'")
			.hasMessageContaining("java.util.UUID")
			.hasMessageContaining("use String, Long");
		assertThatThrownBy(() -> client.start(Waiter::run, "x",
				StartOptions.builder()
					.workflowId("bad")
					.searchAttributes(Map.of("nested", List.of(List.of("a"))))
					.build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("'nested'");
		assertThatThrownBy(() -> client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("bad").searchAttributes(Map.of("nan", Double.NaN)).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("finite");
		assertThatThrownBy(() -> client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("bad").memo(Map.of("no-dashes", "x")).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid memo key 'no-dashes'");
		assertThatThrownBy(() -> client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("bad").memo(Map.of("thing", new Unwritable())).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Memo value of 'thing' cannot be written as JSON");
		assertThat(this.engines.count("workflow_run")).as("nothing written").isZero();
		assertThat(this.engines.count("visibility")).isZero();

		assertThatThrownBy(() -> client.list(WorkflowFilter.all(), 10, "not a token"))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid page token");
		String forged = java.util.Base64.getUrlEncoder().encodeToString("v1:soon:someone".getBytes());
		assertThatThrownBy(() -> client.list(WorkflowFilter.all(), 10, forged))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid page token");
		assertThatThrownBy(() -> client.list(WorkflowFilter.all(), 0, null))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Page size");
		assertThatThrownBy(() -> client.list(WorkflowFilter.all(), 1001, null))
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> client.count(WorkflowFilter.all().eq("id", UUID.randomUUID())))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("java.util.UUID");
		assertThatThrownBy(() -> client.count(WorkflowFilter.all().gt("tags", List.of("a"))))
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> WorkflowFilter.all().eq("k", null)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("needs a value");
	}

	@Test
	void aBadUpsertFailsTheWorkflowTaskAndWritesNothing() {
		WorkflowClient client = engine().client();
		for (String mode : List.of("key", "type")) {
			WorkflowHandle<String> handle = client.start(BadUpsert::run, mode, StartOptions.withId("bad-" + mode));
			await().until(() -> "yes".equals(handle.describe().searchAttributes().get("good")));
			int historyRows = this.engines.count("history");
			handle.signal("go", "now");
			await().until(() -> handle.describe().taskFailure() != null);
			WorkflowDescription stuck = handle.describe();
			assertThat(stuck.status()).isEqualTo(WorkflowStatus.RUNNING);
			assertThat(stuck.taskFailure()).contains("IllegalArgumentException")
				.contains(mode.equals("key") ? "Invalid search attribute key 'bad key!'" : "java.util.UUID");
			assertThat(stuck.searchAttributes()).isEqualTo(Map.of("good", "yes"));
			assertThat(this.engines.count("history")).isEqualTo(historyRows);
			handle.terminate("done");
		}
	}

	@Test
	void injectionInNamesAndValuesFindsNothingAndBreaksNothing() {
		WorkflowClient client = engine().client();
		String injection = "x' OR '1'='1'); DROP TABLE visibility; --";
		WorkflowHandle<String> marked = client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("marked").searchAttributes(Map.of("note", injection)).build());
		client.start(Waiter::run, "x",
				StartOptions.builder().workflowId("plain").searchAttributes(Map.of("note", "plain")).build());

		assertThat(ids(client, WorkflowFilter.all().eq("note", injection))).as("stored and matched verbatim")
			.containsExactly("marked");
		assertThat(ids(client, WorkflowFilter.all().eq("note", "x' OR '1'='1"))).isEmpty();
		assertThat(ids(client, WorkflowFilter.all().in("note", List.of("' OR 1=1 --", "\"}]}')")))).isEmpty();
		assertThat(ids(client, WorkflowFilter.all().lt("note", injection))).as("an ordinary string comparison")
			.containsExactly("plain");
		assertThat(ids(client, WorkflowFilter.ofType("waiter' OR '1'='1"))).isEmpty();
		assertThat(ids(client, WorkflowFilter.all().workflowIdPrefix("' OR '1'='1"))).isEmpty();
		assertThatThrownBy(() -> client.list(WorkflowFilter.all().eq("note' OR '1'='1", "x"), 10, null))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid search attribute key");
		assertThatThrownBy(() -> client.count(WorkflowFilter.all().gt("a'); DROP TABLE visibility; --", 1)))
			.isInstanceOf(IllegalArgumentException.class);
		assertThat(client.count(WorkflowFilter.all())).as("the table is intact").isEqualTo(2);
		assertThat(marked.describe().searchAttributes()).containsEntry("note", injection);
	}

}
