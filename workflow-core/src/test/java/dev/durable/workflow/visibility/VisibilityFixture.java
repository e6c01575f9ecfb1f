package dev.durable.workflow.visibility;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowExecution;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowPage;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.Engines;

/**
 * What the visibility tests ({@link VisibilityTest}, {@link VisibilityListTest},
 * {@link VisibilityBadInputTest}) share: the workflows that write memo and search
 * attributes, an engine that runs them all, and the workflow ids a listing returns.
 *
 * <p>
 * Memo, search attributes, their upserts from workflow code, and listing and counting
 * runs.
 */
abstract class VisibilityFixture {

	static final AtomicInteger ATTEMPTS = new AtomicInteger();

	static volatile String stage = "one";

	final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** A note kept in the memo. */
	public record Note(String by, int priority) {
	}

	/** A memo value Jackson cannot write. */
	public static class Unwritable {

		public String getValue() {
			throw new IllegalStateException("not writable");
		}

	}

	/** Upserts over three tasks, with removals, and answers what it sees. */
	@Workflow(value = "order", receives = { "next", "done" })
	public static class OrderWorkflow {

		@WorkflowRun
		public String run(String input) {
			Workflows.upsertSearchAttributes(Map.of("stage", "received", "amount", 10));
			Workflows.upsertMemo(Map.of("note", "first", "steps", List.of(1, 2)));
			Workflows.receive("next", String.class);
			Map<String, Object> patch = new HashMap<>();
			patch.put("stage", "paid");
			patch.put("amount", 25.5);
			patch.put("tags", List.of("rush", "gift"));
			patch.put("paidAt", Workflows.now());
			patch.put("customer", null);
			Workflows.upsertSearchAttributes(patch);
			Map<String, Object> memo = new HashMap<>();
			memo.put("note", null);
			memo.put("by", new Note("ada", 2));
			Workflows.upsertMemo(memo);
			Workflows.upsertSearchAttributes(Map.of());
			Workflows.receive("done", String.class);
			Workflows.upsertSearchAttributes(Map.of("stage", "shipped"));
			return Workflows.info().searchAttributes().toString();
		}

		@QueryMethod
		public Map<String, Object> attributes() {
			return Workflows.info().searchAttributes();
		}

	}

	/** Waits until stopped. */
	@Workflow(value = "waiter", receives = { "stop" })
	public static class Waiter {

		@WorkflowRun
		public String run(String input) {
			return Workflows.receive("stop", String.class);
		}

	}

	/** Another type. */
	@Workflow(value = "other-waiter", receives = { "stop" })
	public static class OtherWaiter {

		@WorkflowRun
		public String run(String input) {
			return Workflows.receive("stop", String.class);
		}

	}

	/** Returns at once. */
	@Workflow("quick")
	public static class Quick {

		@WorkflowRun
		public String run(String input) {
			return input;
		}

	}

	/** Upserts the key it is given (for bad input). */
	@Workflow(value = "bad-upsert", receives = { "go" })
	public static class BadUpsert {

		@WorkflowRun
		public String run(String mode) {
			Workflows.upsertSearchAttributes(Map.of("good", "yes"));
			Workflows.receive("go", String.class);
			if (mode.equals("key")) {
				Workflows.upsertSearchAttributes(Map.of("bad key!", "x"));
			}
			else {
				Workflows.upsertSearchAttributes(Map.of("id", UUID.randomUUID()));
			}
			return "unreachable";
		}

	}

	/**
	 * Upserts what the static field says: changing it between run and replay is
	 * non-deterministic.
	 */
	@Workflow("flip")
	public static class Flip {

		@WorkflowRun
		public String run(String input) {
			Workflows.upsertSearchAttributes(Map.of("stage", stage));
			return "ok";
		}

	}

	/** Continues as new twice; each run records n and reports what it started with. */
	@Workflow("chain")
	public static class Chain {

		@WorkflowRun
		public String run(Integer n) {
			Map<String, Object> before = Workflows.info().searchAttributes();
			Workflows.upsertSearchAttributes(Map.of("n", n));
			if (n < 2) {
				Workflows.continueAsNew(n + 1);
			}
			return before.toString();
		}

	}

	/** Fails its first attempt after an upsert. */
	@Workflow("retried-upsert")
	public static class RetriedUpsert {

		@WorkflowRun
		public String run(String input) {
			Map<String, Object> before = Workflows.info().searchAttributes();
			int attempt = Workflows.sideEffect(Integer.class, ATTEMPTS::incrementAndGet);
			Workflows.upsertSearchAttributes(Map.of("attempt", attempt));
			if (attempt < 2) {
				throw ApplicationFailure.newFailure("first attempt fails", "Flaky");
			}
			return before.toString();
		}

	}

	WorkflowEngine engine() {
		return this.engines.start(this.engines.builder()
			.register(OrderWorkflow.class)
			.register(Waiter.class)
			.register(OtherWaiter.class)
			.register(Quick.class)
			.register(BadUpsert.class)
			.register(Flip.class)
			.register(Chain.class)
			.register(RetriedUpsert.class));
	}

	static List<String> ids(WorkflowPage page) {
		return page.executions().stream().map(WorkflowExecution::workflowId).toList();
	}

	static List<String> ids(WorkflowClient client, WorkflowFilter filter) {
		return ids(client.list(filter, 1000, null));
	}

}
