package dev.durable.workflow.web.browser;

import java.io.File;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
 * The dashboard in a real Chromium for a caller the operations are not allowed to (the
 * default: neither {@code operations-enabled} nor a required role): it reads everything
 * and queries, shows no signal, update, cancel, terminate, reset, batch or schedule
 * action, says so, and the server refuses such a request sent from the page anyway.
 */
@SpringBootTest(classes = DashboardApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "durable.workflow.schema=dashboard_view_it", "durable.workflow.embedded-postgres.enabled=false",
				"durable.workflow.worker.poll-interval=100ms", DashboardApplication.WITHOUT_SECURITY })
// the first test also waits for the application and the browser to start
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DashboardViewOnlyBrowserIT {

	private static DashboardBrowser browser;

	@LocalServerPort
	private int port;

	@Autowired
	private WorkflowClient client;

	@BeforeAll
	static void chromium() {
		assumeTrue(DashboardBrowser.installed().isPresent(),
				"Debian's chromium and chromium-driver are not installed (.ci/run installs them)");
	}

	@BeforeEach
	void browser() {
		if (browser == null) {
			File[] chromium = DashboardBrowser.installed().orElseThrow();
			browser = DashboardBrowser.open(chromium, "http://localhost:" + this.port);
		}
	}

	@AfterAll
	static void quit() {
		if (browser != null) {
			browser.close();
			browser = null;
		}
	}

	@Test
	void everythingIsReadableAndQueryableButNoOperationIsOffered() {
		this.client.start("shipment", new ShipmentWorkflow.Shipment("lamp", "c-9"), StartOptions.withId("view-1"));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.client.handle("view-1").describe().workflowTasks() >= 2);
		this.client.schedules()
			.create("view-schedule",
					Schedule.of(ScheduleSpec.every(Duration.ofHours(6)), ScheduleAction.startWorkflow("invoice", 7)));

		browser.go("/runs?open=view-1");
		browser.awaitText("#run-title", "view-1");
		assertThat(browser.text("#mode")).contains("view only");
		assertThat(browser.text("#actions-off")).contains("operations-enabled");
		for (String action : new String[] { "#signal-form", "#update-form", "#cancel-go", "#terminate-go",
				"#reset-form" }) {
			assertThat(browser.all(action)).as(action).isEmpty();
		}
		browser.type("#query-name", "state");
		browser.click("#query-go");
		browser.awaitText("#action-result", "awaiting approval");
		browser.screenshot("view-only-run");

		// the page offers nothing, and the server refuses what a caller sends past it
		Object answer = browser.async("const done = arguments[arguments.length - 1];"
				+ "fetch('/durable/workflows/view-1/signals/approve', {method: 'POST',"
				+ " headers: {'Content-Type': 'application/json'}, body: '\"mallory\"'})"
				+ ".then((r) => r.json().then((b) => done(r.status + ' ' + b.code)))");
		assertThat(answer).isEqualTo("403 OPERATION_DISABLED");
		assertThat(this.client.handle("view-1").describe().status()).isEqualTo(WorkflowStatus.RUNNING);

		browser.go("/runs");
		browser.awaitText("#runs", "view-1");
		assertThat(browser.all("#batch-from-filter")).isEmpty();
		browser.go("/batches");
		browser.await("#batches");
		assertThat(browser.all("#batch-form")).isEmpty();
		browser.go("/schedules?open=view-schedule");
		browser.awaitText("#schedule h1", "view-schedule");
		assertThat(browser.all("#schedule-pause")).isEmpty();
		assertThat(browser.all("#schedule-trigger")).isEmpty();
	}

}
