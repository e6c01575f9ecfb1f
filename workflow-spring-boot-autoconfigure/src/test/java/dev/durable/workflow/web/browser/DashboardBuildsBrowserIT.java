package dev.durable.workflow.web.browser;

import java.io.File;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The builds on the dashboard, in a real Chromium, against a node of build
 * {@code dash-2.0}: the overview's builds card and stranded-runs tile, a run page's
 * "waiting for build" badge, and the move of an old build's runs to this node's build
 * from the card, after which the old build is drained.
 */
@SpringBootTest(classes = DashboardApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "durable.workflow.schema=dashboard_builds", "durable.workflow.embedded-postgres.enabled=false",
				"durable.workflow.worker.poll-interval=100ms", "durable.workflow.web.operations-enabled=true",
				"durable.workflow.node.build-id=dash-2.0", DashboardApplication.WITHOUT_SECURITY })
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DashboardBuildsBrowserIT {

	private static DashboardBrowser browser;

	@LocalServerPort
	private int port;

	@Autowired
	private WorkflowClient client;

	@Autowired
	private JdbcTemplate jdbc;

	@BeforeAll
	static void chromium() {
		assumeTrue(DashboardBrowser.installed().isPresent(),
				"Debian's chromium and chromium-driver are not installed (.ci/run installs them)");
	}

	@AfterAll
	static void quit() {
		if (browser != null) {
			browser.close();
			browser = null;
		}
	}

	@Test
	void aStrandedRunIsShownAndMovedFromTheBuildsCard() {
		WorkflowHandle<Object> run = this.client.start("shipment",
				new ShipmentWorkflow.Shipment("item-build", "c-build"), StartOptions.withId("shipment-build"));
		await().atMost(Duration.ofSeconds(30)).until(() -> run.describe().workflowTasks() >= 2);
		// as if an older build, whose nodes are all gone, had started it
		this.jdbc.update("UPDATE dashboard_builds.workflow_run SET build_id = 'dash-1.0', pinned = true,"
				+ " owner_node = NULL WHERE workflow_id = 'shipment-build'");
		File[] chromium = DashboardBrowser.installed().orElseThrow();
		browser = DashboardBrowser.open(chromium, "http://localhost:" + this.port);

		browser.go("/runs?open=shipment-build");
		browser.awaitText("#build-badge", "WAITING FOR BUILD");
		assertThat(browser.text("#run-build")).contains("dash-1.0").contains("pinned");

		browser.go("/");
		browser.awaitText("#builds tr[data-build='dash-1.0']", "DRAINING");
		assertThat(browser.text("#tiles")).contains("stranded runs");
		assertThat(browser.text("#builds-routing")).contains("dash-2.0");
		browser.screenshot("builds-stranded");
		browser.openDialog("#builds tr[data-build='dash-1.0'] button[data-action='move']");
		browser.confirm();
		await().atMost(Duration.ofSeconds(20)).until(() -> "dash-2.0".equals(run.describe().build().buildId()));
		// drained: the old build is gone from the card, its nodes may go
		browser.awaitGone("#builds tr[data-build='dash-1.0']");
		assertThat(browser.all("#builds tr[data-build='dash-2.0'] button[data-action='current']"))
			.as("the current build offers no 'make current'")
			.isEmpty();
		assertThat(browser.browserErrors()).as("errors the page logged").isEmpty();
		run.signal("approve", "ops");
		await().atMost(Duration.ofSeconds(20)).until(() -> run.describe().closeTime() != null);
	}

}
