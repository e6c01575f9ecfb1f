package dev.durable.workflow.web.browser;

import java.io.File;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
import dev.durable.workflow.client.schedule.ScheduleSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The dashboard in a real Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}; skipped when they are missing) against a real application on a
 * random port: the overview, the run list and its filters as a deep link, a run's detail
 * and timeline, signal, query, update, terminate and reset from the page, a batch
 * operation and a schedule. Screenshots of each step are kept in
 * {@code target/dashboard-screenshots}.
 */
@SpringBootTest(classes = DashboardApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "durable.workflow.schema=dashboard_it", "durable.workflow.embedded-postgres.enabled=false",
				"durable.workflow.worker.poll-interval=100ms", "durable.workflow.web.operations-enabled=true",
				DashboardApplication.WITHOUT_SECURITY })
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// the first test also waits for the application and the browser to start
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DashboardBrowserIT {

	private static DashboardBrowser browser;

	private static boolean started;

	@LocalServerPort
	private int port;

	@Autowired
	private WorkflowClient client;

	@Autowired
	private HeldDescriptions heldDescriptions;

	@BeforeAll
	static void chromium() {
		assumeTrue(DashboardBrowser.installed().isPresent(),
				"Debian's chromium and chromium-driver are not installed (.ci/run installs them)");
	}

	@BeforeEach
	void runsAndBrowser() {
		if (!started) {
			DashboardScenario.start(this.client);
			// the runs that have something to show: settled before the first page is read
			await().atMost(Duration.ofSeconds(30))
				.until(() -> status("invoice-declined") == WorkflowStatus.FAILED
						&& status("invoice-ok") == WorkflowStatus.COMPLETED
						&& status("fulfillment-1") == WorkflowStatus.RUNNING
						&& this.client.handle("fulfillment-1").describe().workflowTasks() >= 5
						&& this.client.handle("shipment-3").describe().workflowTasks() >= 2);
			started = true;
		}
		if (browser == null) {
			File[] chromium = DashboardBrowser.installed().orElseThrow();
			browser = DashboardBrowser.open(chromium, "http://localhost:" + this.port);
		}
	}

	@AfterEach
	void noScriptOrRequestFailed() {
		if (browser != null) {
			assertThat(browser.browserErrors()).as("errors the page logged").isEmpty();
		}
	}

	@AfterAll
	static void quit() {
		if (browser != null) {
			browser.close();
			browser = null;
		}
	}

	private WorkflowStatus status(String workflowId) {
		return this.client.handle(workflowId).describe().status();
	}

	@Test
	@Order(1)
	void overviewCountsRunsByTypeAndStatusAndShowsFailingTasksAndNodes() {
		browser.go("/");
		String byType = browser.awaitText("#runs-by-type", "shipment").getText();
		assertThat(byType).contains("shipment 3", "invoice", "packing");
		browser.awaitText("#failing-runs", "audit-1");
		assertThat(browser.text("#failing-runs")).contains("audit rules missing");
		assertThat(browser.text("#nodes")).contains("ALIVE");
		assertThat(browser.text("#tiles")).contains("failing workflow tasks");
		browser.screenshot("overview");
	}

	@Test
	@Order(2)
	void runListFiltersByTypeAndSearchAttributesAndTheUrlKeepsTheFilter() {
		browser.go("/runs");
		browser.awaitText("#runs", "invoice-ok");
		browser.awaitOption("#f-type", "shipment");
		browser.select("#f-type", "shipment");
		browser.type("#f-query", "amount >= 200");
		browser.type("#f-cols", "customer, amount");
		browser.click("#f-search");
		browser.awaitText("#page-info", "· 2 run(s)");
		assertThat(ids()).containsExactlyInAnyOrder("shipment-2", "shipment-3");
		assertThat(browser.text("#runs-table thead")).contains("customer", "amount");
		assertThat(browser.hash()).contains("type=shipment").contains("cols=customer%2Camount");
		browser.screenshot("runs-filtered");

		// the same URL in a fresh page is the same list: a link to share
		String link = browser.hash();
		browser.go("/");
		browser.await("#tiles");
		browser.go(link.substring(1));
		browser.awaitText("#page-info", "· 2 run(s)");
		assertThat(ids()).containsExactlyInAnyOrder("shipment-2", "shipment-3");
		assertThat(browser.text("#runs")).contains("c-3", "300");

		browser.select("#f-status", "FAILED");
		browser.select("#f-type", "any type");
		browser.type("#f-query", "");
		browser.click("#f-search");
		browser.awaitText("#page-info", "· 1 run(s)");
		assertThat(ids()).containsExactly("invoice-declined");
	}

	private List<String> ids() {
		return browser.all("#runs tr.run").stream().map((row) -> row.getAttribute("data-id")).toList();
	}

	@Test
	@Order(3)
	void aRunShowsItsDetailAndATimelineThatPairsEvents() {
		browser.go("/runs?type=shipment");
		browser.awaitText("#runs", "shipment-1");
		browser.clickLink("shipment-1");
		browser.awaitText("#run-title", "shipment-1");
		assertThat(browser.hash()).contains("open=shipment-1").contains("type=shipment");
		assertThat(browser.text("#run-search-attributes")).contains("customer", "c-1");
		assertThat(browser.text("#run-memo")).contains("channel", "web");
		assertThat(browser.text("#timers")).contains("pending");
		WebElement activity = browser.await("#timeline tr[data-kind=activity]");
		assertThat(activity.getText()).contains("reserve", "reservation-item-1");
		assertThat(activity.getAttribute("data-state")).isEqualTo("completed");
		assertThat(browser.await("#timeline tr[data-kind=timer]").getAttribute("data-state")).isEqualTo("open");
		activity.click();
		browser.awaitText("#timeline tr.detail:not([hidden])", "ACTIVITY_COMPLETED");
		browser.screenshot("run-timeline");

		browser.click("#history-tabs a[data-tab=events]");
		browser.awaitText("#events", "TIMER_STARTED");
		browser.click("#history-tabs a[data-tab=json]");
		browser.awaitText("#history pre.raw", "\"WORKFLOW_STARTED\"");

		browser.go("/runs?open=invoice-declined");
		browser.awaitText("#run-failure", "CardDeclined");
		assertThat(browser.await("#run-failure details.stack").getAttribute("open")).isNull();
		browser.click("#run-failure details.stack summary");
		browser.awaitText("#run-failure details.stack pre", "Warehouse.charge");
		browser.screenshot("run-failure");

		browser.go("/runs?open=audit-1");
		browser.awaitText("#task-failure", "audit rules missing");
		browser.go("/runs?open=ledger-sync-7");
		browser.awaitText("#pending-activities", "ledger service unavailable");
		browser.go("/runs?open=fulfillment-1");
		browser.awaitText("#children", "packing");
		assertThat(browser.all("#run-chain tr")).hasSize(2);
		browser.screenshot("run-children-and-chain");
		browser.click("#children a");
		browser.awaitText("#run-head", "child of fulfillment-1");
		browser.click("#parent-link");
		browser.awaitText("#run-title", "fulfillment-1");
	}

	@Test
	@Order(4)
	void signalQueryAndUpdateFromTheRunPage() {
		browser.go("/runs?open=shipment-2");
		browser.awaitText("#run-title", "shipment-2");
		browser.type("#query-name", "state");
		browser.click("#query-go");
		browser.awaitText("#action-result", "awaiting approval");

		browser.type("#update-name", "addNote");
		browser.type("#update-arg", "\"fragile\"");
		browser.openDialog("#update-go");
		browser.confirm();
		browser.awaitText("#action-result", "noted: fragile");

		browser.type("#signal-name", "approve");
		browser.type("#signal-payload", "\"ann\"");
		browser.openDialog("#signal-go");
		browser.confirm();
		browser.awaitText("#action-result", "signal approve delivered");
		browser.awaitText("#run-head .status", "COMPLETED");
		assertThat(browser.awaitText("#run-result", "approved by ann").getText()).contains("fragile");
		assertThat(status("shipment-2")).isEqualTo(WorkflowStatus.COMPLETED);
		browser.screenshot("run-signaled");
	}

	@Test
	@Order(11)
	void aRunThatClosesBetweenThePagesReadsShowsItsResult() throws InterruptedException {
		this.client.start("shipment", new ShipmentWorkflow.Shipment("item-race", "c-race"),
				StartOptions.withId("shipment-race"));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.client.handle("shipment-race").describe().workflowTasks() >= 2);
		// the page reads the history while the run waits, and the description after it
		// closed
		this.heldDescriptions.arm("shipment-race");
		try {
			browser.go("/runs?open=shipment-race");
			assertThat(this.heldDescriptions.awaitOutOfStep()).as("the reads put out of step").isTrue();
			this.client.handle("shipment-race").signal("approve", "bob");
			await().atMost(Duration.ofSeconds(30)).until(() -> status("shipment-race") == WorkflowStatus.COMPLETED);
		}
		finally {
			this.heldDescriptions.release();
		}
		browser.awaitText("#run-head .status", "COMPLETED");
		// the page refreshes until the history holds the close too
		browser.awaitText("#run-result", "approved by bob");
	}

	@Test
	@Order(5)
	void terminateAsksForAReasonAndClosesTheRun() {
		browser.go("/runs?open=shipment-3");
		browser.awaitText("#run-title", "shipment-3");
		browser.openDialog("#terminate-go");
		browser.confirm("#stop-reason", "customer moved away");
		browser.awaitText("#run-head .status", "TERMINATED");
		browser.awaitText("#run-closed", "customer moved away");
		assertThat(browser.all("#terminate-go")).isEmpty();
		assertThat(status("shipment-3")).isEqualTo(WorkflowStatus.TERMINATED);
	}

	@Test
	@Order(6)
	void resetToAChosenWorkflowTaskStartsANewRun() {
		String before = this.client.handle("fulfillment-1").describe().runId().toString();
		browser.go("/runs?open=fulfillment-1");
		browser.awaitText("#run-id", before);
		browser.select("#reset-event", browser.all("#reset-event option").get(1).getText());
		browser.openDialog("#reset-go");
		browser.confirm("#reset-reason", "packing rules changed");
		browser.awaitText("#action-result", "new run");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> !this.client.handle("fulfillment-1").describe().runId().toString().equals(before));
		String after = this.client.handle("fulfillment-1").describe().runId().toString();
		browser.awaitText("#run-id", after);
		assertThat(browser.hash()).contains("run=" + after);
		browser.awaitText("#run-chain", before);
		assertThat(browser.all("#run-chain tr")).hasSize(3);
	}

	@Test
	@Order(7)
	void aBatchTerminatesEveryRunItsFilterMatches() {
		for (int i = 1; i <= 3; i++) {
			this.client.start("ledger-sync", "acct-b" + i, StartOptions.withId("batch-ledger-" + i));
		}
		browser.go("/batches");
		browser.select("#b-operation", "TERMINATE");
		browser.type("#b-prefix", "batch-ledger-");
		browser.type("#b-reason", "ledger retired");
		browser.click("#b-preview");
		browser.awaitText("#b-count", "3 run(s) match now");
		browser.openDialog("#b-start");
		browser.confirm();
		browser.awaitText("#batch h1", "COMPLETED");
		assertThat(browser.text("#batch-succeeded")).isEqualTo("3");
		for (int i = 1; i <= 3; i++) {
			assertThat(status("batch-ledger-" + i)).isEqualTo(WorkflowStatus.TERMINATED);
		}
		assertThat(status("ledger-sync-7")).isEqualTo(WorkflowStatus.RUNNING);
		browser.screenshot("batch");
		browser.go("/batches");
		browser.awaitText("#batches-table", "TERMINATE");
	}

	@Test
	@Order(8)
	void aScheduleIsPausedAndTriggeredFromItsPage() {
		this.client.schedules()
			.create("nightly-invoice",
					Schedule.of(ScheduleSpec.every(Duration.ofHours(12)), ScheduleAction.startWorkflow("invoice", 42)));
		browser.go("/schedules");
		browser.awaitText("#schedules-table", "nightly-invoice");
		browser.clickLink("nightly-invoice");
		browser.awaitText("#schedule h1", "ACTIVE");
		browser.click("#schedule-pause");
		browser.awaitText("#schedule h1", "PAUSED");
		browser.click("#schedule-trigger");
		// the page reloads after the action (its recent actions show it), and the outcome
		// stays
		browser.awaitText("#recent-actions", "TRIGGERED");
		browser.awaitText("#schedule-result", "triggered: STARTED");
		assertThat(this.client.schedules().describe("nightly-invoice").schedule().paused()).isTrue();
		browser.screenshot("schedule");

		// a day of the spec (every 12 hours from midnight UTC), ending 12 hours ago: two
		// actions
		java.time.Instant end = java.time.Instant.now().minus(Duration.ofHours(12));
		java.time.LocalDateTime local = java.time.LocalDateTime.ofInstant(end, java.time.ZoneId.systemDefault())
			.withSecond(0)
			.withNano(0);
		browser.setValue("#backfill-start", local.minusDays(1).toString());
		browser.setValue("#backfill-end", local.toString());
		browser.openDialog("#schedule-backfill");
		browser.confirm();
		browser.awaitText("#recent-actions", "BACKFILLED");
		browser.awaitText("#schedule-result", "backfilled: 2 action(s)");

		browser.openDialog("#schedule-delete");
		browser.confirm();
		browser.awaitText("#schedules", "No schedules");
		assertThat(this.client.schedules().list()).isEmpty();
	}

	@Test
	@Order(10)
	void cancelAsksTheWorkflowToStop() {
		browser.go("/runs?open=shipment-1");
		browser.awaitText("#run-title", "shipment-1");
		browser.openDialog("#cancel-go");
		browser.confirm();
		browser.awaitText("#run-head .status", "CANCELED");
		assertThat(status("shipment-1")).isEqualTo(WorkflowStatus.CANCELED);
	}

	@Test
	@Order(9)
	void aNonDeterministicTaskIsToldApartWithWhatHistoryHoldsAndWhatTheCodeIssues() {
		var handle = this.client.start("pricing", "desk", StartOptions.withId("pricing-1"));
		await().atMost(Duration.ofSeconds(30)).until(() -> handle.describe().workflowTasks() >= 2);
		long secondTask = handle.history()
			.stream()
			.filter((e) -> e.workflowTask() == 2)
			.findFirst()
			.orElseThrow()
			.eventId();
		PricingWorkflow.secondRule = true;
		try {
			// the new run replays the first task with the changed code
			handle.reset(secondTask, "replay with the new pricing rule");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> this.client.handle("pricing-1").describe().taskFailure() != null);
			browser.go("/runs?open=pricing-1");
			browser.awaitText("#task-failure", "Non-determinism");
			assertThat(browser.text("#task-failure")).contains("NonDeterministicWorkflowException");
			assertThat(browser.text("#non-determinism")).contains("history holds", "reserve", "the code now issues",
					"ship");
			assertThat(browser.text("#run-head")).contains("TASK FAILING");
			browser.screenshot("run-non-deterministic");
		}
		finally {
			PricingWorkflow.secondRule = false;
		}
	}

	@Test
	@Order(11)
	void aRunIsPausedAndUnpausedFromItsPageAndListedAsPaused() {
		this.client.start("ledger-sync", "acct-p",
				StartOptions.builder().workflowId("pause-ledger").summary("Ledger of account acct-p").build());
		browser.go("/runs?open=pause-ledger");
		browser.awaitText("#run-title", "pause-ledger");
		browser.awaitText("#run-user-summary", "Ledger of account acct-p");
		browser.openDialog("#pause-go");
		browser.confirm("#pause-reason", "ledger under audit");
		browser.awaitText("#run-head", "PAUSED");
		browser.awaitText("#paused-since", "ledger under audit");
		browser.awaitText("#waiting-on", "unpause");
		assertThat(browser.text("#waiting-on")).contains("activity", "syncLedger");
		assertThat(this.client.handle("pause-ledger").describe().pauseReason()).isEqualTo("ledger under audit");
		browser.screenshot("run-paused");

		browser.go("/runs?paused=true");
		browser.awaitText("#runs", "pause-ledger");
		assertThat(browser.text("#runs")).contains("PAUSED", "Ledger of account acct-p")
			.doesNotContain("ledger-sync-7");
		assertThat(browser.all("#f-paused option[selected]")).hasSize(1);

		browser.go("/runs?open=pause-ledger");
		browser.click("#unpause-go");
		browser.awaitText("#action-result", "unpaused");
		assertThat(this.client.handle("pause-ledger").describe().paused()).isFalse();
		// the page shows the run as it is now
		browser.awaitGone("#paused-badge");
		browser.await("#pause-go");
	}

	@Test
	@Order(12)
	void anActivityIsPausedUnpausedGivenOptionsAndResetFromItsRunsPage() {
		this.client.start("ledger-sync", "acct-a", StartOptions.withId("activity-ledger"));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.client.handle("activity-ledger").describe().pendingActivities().size() == 1);
		browser.go("/runs?open=activity-ledger");
		browser.awaitText("#pending-activities", "syncLedger");
		browser.openDialog("#pending-table .activity-pause");
		browser.confirm("#activity-pause-reason", "ledger service down");
		browser.awaitText("#pending-activities", "PAUSED");
		browser.awaitText("#pending-activities", "ledger service down");
		browser.awaitText("#waiting-on", "activity paused");
		assertThat(this.client.handle("activity-ledger").describe().pendingActivities().get(0).pauseReason())
			.isEqualTo("ledger service down");
		browser.screenshot("activity-paused");

		browser.click("#pending-table .activity-unpause");
		browser.awaitGone("#pending-table .activity-paused");
		browser.await("#pending-table .activity-pause");
		assertThat(this.client.handle("activity-ledger").describe().pendingActivities().get(0).isPaused()).isFalse();

		browser.openDialog("#pending-table .activity-options");
		browser.confirm("#activity-max-attempts", "7", "#activity-start-to-close", "PT3M");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.client.handle("activity-ledger")
				.describe()
				.pendingActivities()
				.get(0)
				.options()
				.retryPolicy()
				.maximumAttempts() == 7);
		assertThat(this.client.handle("activity-ledger")
			.describe()
			.pendingActivities()
			.get(0)
			.options()
			.startToCloseTimeout()).isEqualTo(Duration.ofMinutes(3));

		browser.openDialog("#pending-table .activity-reset");
		browser.confirm();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.client.handle("activity-ledger")
				.history()
				.stream()
				.anyMatch((event) -> event.type().equals("ACTIVITY_RESET")));
		assertThat(this.client.handle("activity-ledger").history()).extracting((event) -> event.type())
			.contains("ACTIVITY_PAUSED", "ACTIVITY_UNPAUSED", "ACTIVITY_OPTIONS_UPDATED");
	}

	@Test
	@Order(13)
	void theOverviewListsTheEventTopics() {
		this.client.publish("dash-payments", Map.of("orderId", "o-1"), "dash-pay-1");
		this.client.publish("dash-payments", Map.of("orderId", "o-2"), "dash-pay-2");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.client.topics()
				.stream()
				.anyMatch((t) -> t.topic().equals("dash-payments") && t.lastPosition() == 2));
		browser.go("/");
		browser.awaitText("#topics", "dash-payments");
		assertThat(browser.text("#topics tr[data-topic='dash-payments']")).contains("2");
	}

}
