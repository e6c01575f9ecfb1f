package dev.durable.workflow.visibility;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowPage;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Listing and counting runs: filters by type, status, times, id prefix and attributes,
 * and keyset pages.
 */
class VisibilityListTest extends VisibilityFixture {

	@Test
	void filtersByTypeStatusTimesIdPrefixAndAttributes() {
		WorkflowEngine engine = engine();
		WorkflowClient client = engine.client();
		Instant t0 = this.engines.clock.instant();
		List<WorkflowHandle<String>> handles = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			StartOptions options = StartOptions.builder()
				.workflowId((i == 4) ? "a_" + i : "a" + i)
				.searchAttributes(Map.of("n", i, "score", i * 1.5, "name", "name-" + i, "at",
						t0.plus(Duration.ofHours(i)), "parity", (i % 2 == 0) ? "even" : "odd"))
				.build();
			handles
				.add((i < 3) ? client.start(Waiter::run, "x", options) : client.start(OtherWaiter::run, "x", options));
			this.engines.clock.advance(Duration.ofSeconds(10));
		}
		handles.get(1).signal("stop", "done");
		handles.get(4).signal("stop", "done");
		assertThat(handles.get(1).result(Duration.ofSeconds(10))).isEqualTo("done");
		assertThat(handles.get(4).result(Duration.ofSeconds(10))).isEqualTo("done");
		handles.get(5).terminate("enough");

		assertThat(ids(client, WorkflowFilter.all())).as("newest first")
			.containsExactly("a5", "a_4", "a3", "a2", "a1", "a0");
		assertThat(ids(client, WorkflowFilter.ofType("waiter"))).containsExactly("a2", "a1", "a0");
		assertThat(ids(client, WorkflowFilter.all().status(WorkflowStatus.RUNNING))).containsExactly("a3", "a2", "a0");
		assertThat(ids(client, WorkflowFilter.all().status(WorkflowStatus.COMPLETED, WorkflowStatus.TERMINATED)))
			.containsExactly("a5", "a_4", "a1");
		assertThat(ids(client, WorkflowFilter.all().status(WorkflowStatus.TERMINATED))).containsExactly("a5");
		assertThat(ids(client, WorkflowFilter.all().startedBetween(t0.plusSeconds(10), t0.plusSeconds(30))))
			.containsExactly("a2", "a1");
		assertThat(ids(client, WorkflowFilter.all().startedBetween(t0.plusSeconds(40), null))).containsExactly("a5",
				"a_4");
		assertThat(ids(client, WorkflowFilter.all().closedBetween(t0, null))).containsExactly("a5", "a_4", "a1");
		assertThat(ids(client, WorkflowFilter.all().closedBetween(null, t0))).isEmpty();
		assertThat(ids(client, WorkflowFilter.all().workflowIdPrefix("a_"))).as("_ is no wildcard")
			.containsExactly("a_4");
		assertThat(ids(client, WorkflowFilter.all().workflowIdPrefix("%"))).as("% is no wildcard").isEmpty();
		assertThat(ids(client, WorkflowFilter.all().gt("n", 3))).containsExactly("a5", "a_4");
		assertThat(ids(client, WorkflowFilter.all().ge("n", 3).le("n", 4L))).containsExactly("a_4", "a3");
		assertThat(ids(client, WorkflowFilter.all().lt("score", 3.0))).containsExactly("a1", "a0");
		assertThat(ids(client, WorkflowFilter.all().gt("score", 2))).as("numbers compare across Long and Double")
			.containsExactly("a5", "a_4", "a3", "a2");
		assertThat(ids(client, WorkflowFilter.all().gt("name", 2))).as("a number never matches a string attribute")
			.isEmpty();
		assertThat(ids(client, WorkflowFilter.all().ge("name", "name-4"))).containsExactly("a5", "a_4");
		assertThat(ids(client,
				WorkflowFilter.all().ge("at", t0.plus(Duration.ofHours(2))).lt("at", t0.plus(Duration.ofHours(4)))))
			.containsExactly("a3", "a2");
		assertThat(ids(client, WorkflowFilter.all().in("n", List.of(0, 5, 99)))).containsExactly("a5", "a0");
		assertThat(ids(client, WorkflowFilter.all().in("n", List.of()))).isEmpty();
		assertThat(
				ids(client, WorkflowFilter.ofType("other-waiter").eq("parity", "odd").status(WorkflowStatus.RUNNING)))
			.containsExactly("a3");
		assertThat(ids(client, WorkflowFilter.all().eq("missing", "x"))).isEmpty();
		assertThat(client.count(WorkflowFilter.all())).isEqualTo(6);
		assertThat(client.count(WorkflowFilter.all().eq("parity", "even"))).isEqualTo(3);
		assertThat(client.count(WorkflowFilter.ofType("waiter").status(WorkflowStatus.RUNNING))).isEqualTo(2);
		assertThat(client.list(WorkflowFilter.all().status(WorkflowStatus.TERMINATED), 10, null)
			.executions()
			.get(0)
			.closeTime()).isNotNull();
	}

	@Test
	void pagesAreKeysetPagesStableUnderNewStarts() {
		WorkflowClient client = engine().client();
		List<String> started = new ArrayList<>();
		for (int i = 0; i < 25; i++) {
			client.start(Quick::run, "x",
					StartOptions.builder().workflowId("p" + i).searchAttributes(Map.of("batch", "one")).build());
			started.add(0, "p" + i);
			if (i % 3 == 0) {
				this.engines.clock.advance(Duration.ofSeconds(1)); // some runs share a
																	// start time
			}
		}
		WorkflowFilter filter = WorkflowFilter.all().eq("batch", "one");
		WorkflowPage first = client.list(filter, 10, null);
		assertThat(ids(first)).isEqualTo(started.subList(0, 10));
		assertThat(first.nextPageToken()).isNotNull();
		// runs started between pages are newer: they do not shift the pages that follow
		for (int i = 0; i < 5; i++) {
			client.start(Quick::run, "x",
					StartOptions.builder().workflowId("late" + i).searchAttributes(Map.of("batch", "one")).build());
		}
		WorkflowPage second = client.list(filter, 10, first.nextPageToken());
		WorkflowPage third = client.list(filter, 10, second.nextPageToken());
		assertThat(ids(second)).isEqualTo(started.subList(10, 20));
		assertThat(ids(third)).isEqualTo(started.subList(20, 25));
		assertThat(third.nextPageToken()).as("the last page").isNull();
		Set<UUID> runIds = new HashSet<>();
		for (WorkflowPage page : List.of(first, second, third)) {
			page.executions().forEach((e) -> assertThat(runIds.add(e.runId())).as("no duplicates").isTrue());
		}
		WorkflowPage exact = client.list(WorkflowFilter.all().workflowIdPrefix("p"), 25, null);
		assertThat(exact.executions()).hasSize(25);
		assertThat(exact.nextPageToken()).as("a full last page has no next page").isNull();
		assertThat(client.count(filter)).isEqualTo(30);
	}

}
