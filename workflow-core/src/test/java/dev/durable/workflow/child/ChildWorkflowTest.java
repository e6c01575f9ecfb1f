package dev.durable.workflow.child;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.ChildHandle;
import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.ParentClosePolicy;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowIdReusePolicy;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.failure.ChildWorkflowFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Child workflows: results, failures, id conflicts and parent close policies. */
class ChildWorkflowTest {

	private final Engines engines = new Engines();

	private WorkflowEngine engine;

	@AfterEach
	void close() {
		this.engines.close();
	}

	@BeforeEach
	void start() {
		this.engine = this.engines
			.start(this.engines.builder().register(Parent.class, Child.class, Receiver.class, Messenger.class));
	}

	public record Job(String name, String mode) {
	}

	/** Doubles the name, fails on request, or sleeps for a day. */
	@Workflow("child")
	public static class Child {

		@WorkflowRun
		public String run(Job job) {
			switch (job.mode()) {
				case "fail" -> throw ApplicationFailure.newNonRetryableFailure("child gave up", "ChildError");
				case "sleep" -> Workflows.sleep(Duration.ofDays(1));
				default -> {
				}
			}
			return job.name() + job.name();
		}

	}

	/** Waits for a "note" signal, or for a week. */
	@Workflow(value = "receiver", receives = { "note" })
	public static class Receiver {

		@WorkflowRun
		public String run() {
			return Workflows.receive("note", String.class, Duration.ofDays(7)).orElse("nothing");
		}

	}

	/** Signals and cancels other workflows. */
	@Workflow("messenger")
	public static class Messenger {

		@WorkflowRun
		public String run() {
			Workflows.signalExternal("inbox-1", null, "note", "hello from a workflow").get();
			Workflows.cancelExternal("inbox-2", null).get();
			try {
				Workflows.signalExternal("nobody", null, "note", "lost?").get();
				return "delivered to nobody";
			}
			catch (ApplicationFailure failure) {
				return "sent; " + failure.getType();
			}
		}

	}

	/** Runs a child in one of several ways. */
	@Workflow("parent")
	public static class Parent {

		@WorkflowRun
		public String run(String mode) {
			switch (mode) {
				case "ok" -> {
					String a = Workflows.executeChild(Child::run, new Job("a", "ok"), ChildOptions.withId("child-a"));
					ChildHandle<String> b = Workflows.startChild(Child::run, new Job("b", "ok"), ChildOptions.DEFAULT);
					return a + b.result().get() + " " + b.started().get().length();
				}
				case "fail" -> {
					try {
						Workflows.executeChild(Child::run, new Job("x", "fail"), ChildOptions.withId("child-fail"));
						return "no failure";
					}
					catch (ChildWorkflowFailure failure) {
						return "failed: " + failure.getWorkflowId() + " <- " + failure.getCause().getMessage();
					}
				}
				case "conflict" -> {
					ChildHandle<String> first = Workflows.startChild(Child::run, new Job("s", "sleep"),
							ChildOptions.withId("taken").withParentClosePolicy(ParentClosePolicy.ABANDON));
					first.started().get();
					try {
						Workflows.executeChild(Child::run, new Job("t", "ok"), ChildOptions.withId("taken"));
						return "no conflict";
					}
					catch (ChildWorkflowFailure failure) {
						return "conflict: " + failure.getCause().getMessage();
					}
				}
				case "timeout" -> {
					try {
						return Workflows.executeChild(Child::run, new Job("slow", "sleep"),
								ChildOptions.withId("child-slow")
									.withRunTimeout(Duration.ofHours(1))
									.withExecutionTimeout(Duration.ofHours(2)));
					}
					catch (ChildWorkflowFailure failure) {
						return "timed out: " + failure.getCause().getClass().getSimpleName() + " "
								+ failure.getCause().getMessage();
					}
				}
				case "reuse" -> {
					String first = Workflows.executeChild(Child::run, new Job("r", "ok"),
							ChildOptions.withId("child-once"));
					StringBuilder out = new StringBuilder(first);
					for (WorkflowIdReusePolicy policy : new WorkflowIdReusePolicy[] {
							WorkflowIdReusePolicy.REJECT_DUPLICATE, WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
							WorkflowIdReusePolicy.ALLOW_DUPLICATE }) {
						try {
							String again = Workflows.executeChild(Child::run, new Job("s", "ok"),
									ChildOptions.withId("child-once").withIdReusePolicy(policy));
							out.append(' ').append(again);
						}
						catch (ChildWorkflowFailure failure) {
							out.append(" refused:").append(((ApplicationFailure) failure.getCause()).getType());
						}
					}
					return out.toString();
				}
				case "queue" -> {
					return Workflows.executeChild(Child::run, new Job("q", "ok"),
							ChildOptions.withId("child-queued").withTaskQueue("elsewhere"));
				}
				case "wait" -> {
					Workflows.startChild(Child::run, new Job("v", "sleep"), ChildOptions.withId("victim"))
						.started()
						.get();
					Workflows.sleep(Duration.ofDays(7));
					return "woke";
				}
				default -> {
					ParentClosePolicy policy = ParentClosePolicy.valueOf(mode);
					Workflows
						.startChild(Child::run, new Job("p", "sleep"),
								ChildOptions.withId("orphan-" + mode).withParentClosePolicy(policy))
						.started()
						.get();
					return "left " + policy;
				}
			}
		}

	}

	@Test
	void childResultsReachTheParent() {
		WorkflowHandle<String> handle = this.engine.client().start(Parent::run, "ok", StartOptions.withId("p-ok"));
		assertThat(handle.result(Duration.ofSeconds(15))).isEqualTo("aabb 36");
		Engines.assertReplays(this.engine, handle.runId());
		Engines.assertReplays(this.engine, this.engine.client().handle("child-a").runId());
		assertThat(handle.history()).extracting("type").contains("START_CHILD", "CHILD_STARTED", "CHILD_CLOSED");
	}

	@Test
	void aChildsDescriptionNamesItsParentRun() {
		WorkflowHandle<String> handle = this.engine.client().start(Parent::run, "ok", StartOptions.withId("p-named"));
		handle.result(Duration.ofSeconds(15));
		var child = this.engine.client().handle("child-a").describe();
		assertThat(child.parentWorkflowId()).isEqualTo("p-named");
		assertThat(child.parentRunId()).isEqualTo(handle.runId());
		assertThat(handle.describe().parentWorkflowId()).isNull();
		assertThat(handle.describe().parentRunId()).isNull();
	}

	@Test
	void aFailedChildFailsWithItsCause() {
		WorkflowHandle<String> handle = this.engine.client().start(Parent::run, "fail", StartOptions.withId("p-fail"));
		assertThat(handle.result(Duration.ofSeconds(15))).isEqualTo("failed: child-fail <- child gave up");
		Engines.assertReplays(this.engine, handle.runId());
	}

	@Test
	void anIdConflictIsAStartFailureForTheParentNotAnAbortedTask() {
		WorkflowHandle<String> handle = this.engine.client()
			.start(Parent::run, "conflict", StartOptions.withId("p-conflict"));
		assertThat(handle.result(Duration.ofSeconds(15))).startsWith("conflict: workflow id 'taken' is used");
		assertThat(handle.describe().taskAttempts()).isZero();
		assertThat(this.engine.client().handle("taken").describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		Engines.assertReplays(this.engine, handle.runId());
	}

	@Test
	void aChildsRunTimeoutClosesItTimedOutAndTheParentSeesWhy() {
		WorkflowHandle<String> handle = this.engine.client()
			.start(Parent::run, "timeout", StartOptions.withId("p-timeout"));
		await().until(() -> this.engines.count("timer") == 1);
		assertThat(this.engine.client().handle("child-slow").describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(15))).startsWith("timed out: TimeoutFailure")
			.contains("workflow run timeout");
		assertThat(this.engine.client().handle("child-slow").describe().status()).isEqualTo(WorkflowStatus.TIMED_OUT);
		Engines.assertReplays(this.engine, handle.runId());
	}

	@Test
	void aChildsIdReusePolicyRefusesTheIdOfAClosedRunAsAStartFailure() {
		WorkflowHandle<String> handle = this.engine.client()
			.start(Parent::run, "reuse", StartOptions.withId("p-reuse"));
		assertThat(handle.result(Duration.ofSeconds(15)))
			.isEqualTo("rr refused:WorkflowIdReuse refused:WorkflowIdReuse ss");
		assertThat(handle.describe().taskAttempts()).isZero();
		Engines.assertReplays(this.engine, handle.runId());
		org.assertj.core.api.Assertions
			.assertThatThrownBy(
					() -> ChildOptions.withId("x").withIdReusePolicy(WorkflowIdReusePolicy.TERMINATE_IF_RUNNING))
			.isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void aChildOnAnotherTaskQueueWaitsForANodeServingIt() {
		WorkflowHandle<String> handle = this.engine.client()
			.start(Parent::run, "queue", StartOptions.withId("p-queue"));
		await().ignoreExceptions()
			.until(() -> this.engine.client().handle("child-queued").describe().status() == WorkflowStatus.RUNNING);
		assertThat(this.engine.client().handle("child-queued").describe().taskQueue()).isEqualTo("elsewhere");
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT history_seq FROM " + this.engines.schema
					+ ".workflow_run WHERE workflow_id = 'child-queued'", Integer.class))
			.isZero();
		this.engines.start(this.engines.builder().register(Child.class).taskQueues("elsewhere"));
		assertThat(handle.result(Duration.ofSeconds(15))).isEqualTo("qq");
		Engines.assertReplays(this.engine, handle.runId());
	}

	@Test
	void parentClosePolicies() {
		for (ParentClosePolicy policy : ParentClosePolicy.values()) {
			WorkflowHandle<String> handle = this.engine.client()
				.start(Parent::run, policy.name(), StartOptions.withId("p-" + policy));
			assertThat(handle.result(Duration.ofSeconds(15))).isEqualTo("left " + policy);
			Engines.assertReplays(this.engine, handle.runId());
		}
		await().until(() -> this.engine.client().handle("orphan-TERMINATE").describe().status().isClosed()
				&& this.engine.client().handle("orphan-REQUEST_CANCEL").describe().status().isClosed());
		assertThat(this.engine.client().handle("orphan-TERMINATE").describe().status())
			.isEqualTo(WorkflowStatus.TERMINATED);
		assertThat(this.engine.client().handle("orphan-REQUEST_CANCEL").describe().status())
			.isEqualTo(WorkflowStatus.CANCELED);
		assertThat(this.engine.client().handle("orphan-ABANDON").describe().status()).isEqualTo(WorkflowStatus.RUNNING);
	}

	@Test
	void terminatingTheParentTerminatesItsChildren() {
		WorkflowHandle<String> parent = this.engine.client().start(Parent::run, "wait", StartOptions.withId("p-wait"));
		await().until(() -> this.engines.count("timer") == 2);
		parent.terminate("operator");
		await().until(() -> this.engine.client().handle("victim").describe().status().isClosed());
		assertThat(this.engine.client().handle("victim").describe().status()).isEqualTo(WorkflowStatus.TERMINATED);
		assertThat(this.engine.client().handle("victim").history()).last()
			.satisfies((e) -> assertThat(e.attributes().get("reason").toString()).contains("closed: TERMINATED"));
	}

	@Test
	void signalAndCancelOtherWorkflows() {
		WorkflowHandle<String> first = this.engine.client().start(Receiver::run, StartOptions.withId("inbox-1"));
		WorkflowHandle<String> second = this.engine.client().start(Receiver::run, StartOptions.withId("inbox-2"));
		await().until(() -> this.engines.count("timer") == 2);
		WorkflowHandle<String> messenger = this.engine.client().start(Messenger::run, StartOptions.withId("messenger"));
		assertThat(messenger.result(Duration.ofSeconds(15))).isEqualTo("sent; ExternalWorkflowNotFound");
		assertThat(first.result(Duration.ofSeconds(15))).isEqualTo("hello from a workflow");
		await().until(() -> second.describe().status().isClosed());
		assertThat(second.describe().status()).isEqualTo(WorkflowStatus.CANCELED);
		Engines.assertReplays(this.engine, messenger.runId());
		Engines.assertReplays(this.engine, first.runId());
	}

}
