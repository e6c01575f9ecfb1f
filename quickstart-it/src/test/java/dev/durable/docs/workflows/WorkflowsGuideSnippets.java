package dev.durable.docs.workflows;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

import dev.durable.workflow.ChildHandle;
import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.ParentClosePolicy;
import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.Saga;
import dev.durable.workflow.WorkflowSemaphore;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UpdateHandle;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowPage;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ActivityFailure;

/**
 * The statements of the Java blocks of {@code docs/workflows.md},
 * {@code docs/messages.md} and {@code docs/lifecycle.md}, each in a method whose
 * parameters and class fields are the variables it uses.
 */
@SuppressWarnings("unused")
class WorkflowsGuideSnippets {

	private final Payments payments;

	private final Shipping shipping;

	private final Training activities;

	WorkflowsGuideSnippets(Payments payments, Shipping shipping, Training activities) {
		this.payments = payments;
		this.shipping = shipping;
		this.activities = activities;
	}

	void callByTypeName(Order order) {
		// @formatter:off
		// snippet:workflows-activity-by-type-name
		Receipt receipt = Workflows.activity("charge", ActivityOptions.builder()
		        .startToCloseTimeout(Duration.ofSeconds(30)).build())
		    .execute(Receipt.class, order, "EUR");                       // or executeAsync(...) for a Promise
		// end-snippet
		// @formatter:on
	}

	static String startAndWait(WorkflowClient client) {
		// @formatter:off
		// snippet:workflows-start
		WorkflowHandle<String> handle = client.start(GreetingWorkflow::run, "Ada", StartOptions.withId("greet-ada"));
		String result = handle.result();
		// end-snippet
		// @formatter:on
		return result;
	}

	static WorkflowEngine withoutSpring(DataSource dataSource) {
		// @formatter:off
		// snippet:workflows-without-spring
		WorkflowEngine engine = WorkflowEngine.builder()
		    .dataSource(dataSource)
		    .register(GreetingWorkflow.class)
		    .registerActivities(new Greeter())
		    .build()
		    .start();
		WorkflowClient client = engine.client();
		// end-snippet
		// @formatter:on
		return engine;
	}

	static void sendMessages(WorkflowClient client, String note, AgentInput input) {
		// @formatter:off
		// snippet:workflows-messages
		WorkflowHandle<String> handle = client.handle("agent-42", String.class);
		handle.signal(AgentRun::pause);                                   // stored before it returns
		handle.signal("injectContext", note, "cmd-9f1e");                // idempotency key: a retry is a no-op
		Status status = handle.query(AgentRun::status);
		String goal = handle.update(AgentRun::changeGoal, "write the tests first");
		UpdateHandle<String> pending = handle.startUpdate(AgentRun::changeGoal, "ship it",
		    UpdateOptions.withId("cmd-9f20"));                            // returns once ACCEPTED
		client.signalWithStart(AgentRun::run, input, StartOptions.withId("agent-42"), "pause", null);
		// end-snippet
		// @formatter:on
	}

	static void sendDeclaredSignals(WorkflowHandle<String> handle) {
		// @formatter:off
		// snippet:workflows-receive part 2
		handle.signal(ExpenseWorkflow.DECISION, new Decision(true, "ann"));   // typed send
		handle.signal("coment", "ok");        // UnknownHandlerException: nothing stored
		// end-snippet
		// @formatter:on
	}

	static void children(ReportRequest request, String id, AuditEntry entry, Object state) {
		// @formatter:off
		// snippet:workflows-children
		String report = Workflows.executeChild(ReportWorkflow::run, request, ChildOptions.withId("report-" + id));

		ChildHandle<String> child = Workflows.startChild(ReportWorkflow::run, request,
		    ChildOptions.withId("report-" + id)
		        .withParentClosePolicy(ParentClosePolicy.ABANDON)
		        .withRunTimeout(Duration.ofHours(1))          // also executionTimeout, taskTimeout,
		        .withTaskQueue("reports"));                   // taskQueue and retryPolicy, as for a start
		String childRunId = child.started().get();            // fails with ChildWorkflowFailure if the id is in use

		Workflows.executeChild(CleanupWorkflow::run, ChildOptions.withId("cleanup-" + id)); // no input, void
		ChildHandle<Void> audit = Workflows.startChild(AuditWorkflow::run, entry, null);   // void run method

		Workflows.signalExternal("agent-42", null, "pause", null).get();   // latest open run, or pin a run id
		Workflows.cancelExternal("agent-42", null).get();

		if (Workflows.info().continueAsNewSuggested()) {       // past 4,096 events or 4 MB by default
		  Workflows.await(Workflows::allHandlersFinished);
		  Workflows.continueAsNew(state);                      // same workflow id, new run, fresh history
		}
		// end-snippet
		// @formatter:on
	}

	void saga(Order order) {
		// @formatter:off
		// snippet:workflows-saga
		Saga saga = new Saga(Saga.Options.DEFAULT);          // or new Saga.Options(parallel, continueWithError)
		try {
		  String hold = payments.hold(order);
		  saga.addCompensation(payments::release, hold);     // Runnable, or a method reference with 1-3 arguments
		  shipping.book(order);
		  saga.addCompensation(shipping::cancel, order.id());
		} catch (ActivityFailure ex) {
		  Workflows.newDetachedCancellationScope(saga::compensate).run();   // runs even if the run was cancelled
		  throw ex;
		}
		// end-snippet
		// @formatter:on
	}

	void semaphore(String modelId) {
		// @formatter:off
		// snippet:workflows-semaphore
		WorkflowSemaphore gpus = new WorkflowSemaphore("gpu-pool", 4);     // at most 4 holders, all workflows
		WorkflowSemaphore.Permit permit = gpus.acquire(Duration.ofMinutes(45));   // waits durably for a slot
		try {
		  activities.train(modelId, permit.slot(), permit.runId());        // the run id is a fencing token
		} finally {
		  permit.release();                                                 // a signal pinned to the permit's run
		}
		// end-snippet
		// @formatter:on
	}

	static void timeoutsRetriesAndCron(WorkflowClient client, ReportRequest request) {
		// @formatter:off
		// snippet:workflows-timeouts
		client.start(ReportWorkflow::run, request, StartOptions.builder()
		    .workflowId("nightly-report")
		    .runTimeout(Duration.ofHours(1))            // this run; closes TIMED_OUT
		    .executionTimeout(Duration.ofDays(1))       // the whole chain of runs (continue-as-new, retries)
		    .retryPolicy(RetryPolicy.builder().maximumAttempts(3).build())   // a failed run is run again
		    .cronSchedule("CRON_TZ=Europe/Paris 0 2 * * *")   // 5 fields, or 6 with seconds; UTC without CRON_TZ
		    .taskTimeout(Duration.ofSeconds(30))        // one workflow task; the engine's taskTimeout otherwise
		    .build());
		// end-snippet
		// @formatter:on
	}

	static void startDelay(WorkflowClient client, Reminder reminder, String id, StartOptions options, DataSource ds) {
		// @formatter:off
		// snippet:workflows-start-delay
		client.start(ReminderWorkflow::run, reminder, StartOptions.builder()
		    .workflowId("reminder-" + id)
		    .startDelay(Duration.ofHours(24))           // the first workflow task runs a day later
		    .build());
		client.signalWithStart(ReminderWorkflow::run, reminder, options, "snooze", null);   // a signal starts it at once

		WorkflowEngine.builder().dataSource(ds).retention(Duration.ofDays(30));   // or durable.workflow.retention=30d
		// end-snippet
		// @formatter:on
	}

	static UUID reset(WorkflowClient client) {
		// @formatter:off
		// snippet:workflows-reset
		WorkflowHandle<Object> order = client.handle("order-42");
		long failedAt = order.history().stream()
		    .filter(e -> e.type().equals("ACTIVITY_FAILED")).findFirst().orElseThrow().eventId();
		UUID newRun = order.reset(failedAt, "carrier bug fixed in 1.4.2");   // 1 starts over from scratch
		// end-snippet
		// @formatter:on
		return newRun;
	}

	static long searchAttributes(WorkflowClient client, Order order, Instant startOfDay) {
		// @formatter:off
		// snippet:workflows-search-attributes
		client.start(OrderWorkflow::run, order, StartOptions.builder()
		    .workflowId("order-" + order.id())
		    .searchAttributes(Map.of("customerId", order.customerId(), "amount", order.total()))
		    .memo(Map.of("note", "imported from the old system"))   // shown, not searchable
		    .build());

		// in workflow code: recorded in history, written by the same transaction as the task
		Workflows.upsertSearchAttributes(Map.of("stage", "paid", "paidAt", Workflows.now()));
		Workflows.upsertMemo(Collections.singletonMap("note", null));   // a null value removes the key (Map.of refuses null)

		WorkflowFilter paidToday = WorkflowFilter.ofType("order")
		    .status(WorkflowStatus.RUNNING)
		    .eq("stage", "paid")
		    .ge("paidAt", startOfDay)
		    .startedBetween(startOfDay.minus(Duration.ofDays(30)), null);
		WorkflowPage page = client.list(paidToday, 50, null);         // newest first
		page = client.list(paidToday, 50, page.nextPageToken());     // null after the last page
		long howMany = client.count(paidToday);
		// end-snippet
		// @formatter:on
		return howMany;
	}

}
