package dev.durable.docs.schedules;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.batch.BatchRequest;
import dev.durable.workflow.client.batch.BatchStatus;
import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
import dev.durable.workflow.client.schedule.ScheduleCalendar;
import dev.durable.workflow.client.schedule.ScheduleClient;
import dev.durable.workflow.client.schedule.ScheduleDescription;
import dev.durable.workflow.client.schedule.ScheduleOverlapPolicy;
import dev.durable.workflow.client.schedule.ScheduleSpec;

/**
 * The statements of the Java blocks of {@code docs/schedules-and-batches.md}, each in a
 * method whose parameters are the variables it uses.
 */
@SuppressWarnings("unused")
final class SchedulesGuideSnippets {

	private SchedulesGuideSnippets() {
	}

	static void schedules(WorkflowClient client, ReportRequest request) {
		// @formatter:off
		// snippet:schedules
		ScheduleClient schedules = client.schedules();
		schedules.create("nightly-report", Schedule.of(
		        ScheduleSpec.cron("0 30 2 * * *", ZoneId.of("Europe/Berlin")),   // 6 fields, or 5 without seconds
		        ScheduleAction.startWorkflow(ReportWorkflow::run, request)
		            .withRunTimeout(Duration.ofHours(1)))
		    .withOverlapPolicy(ScheduleOverlapPolicy.BUFFER_ONE));              // default SKIP
		schedules.create("sync", Schedule.of(ScheduleSpec.every(Duration.ofMinutes(15)).withJitter(Duration.ofMinutes(1)),
		    ScheduleAction.startWorkflow("sync", null)));

		// several calendars and intervals (the union of their times), less the skipped ones;
		// at most 10 scheduled runs, then it stops (describe shows 0 remaining; update gives more)
		schedules.create("office-sync", Schedule.of(ScheduleSpec.builder()
		        .cron("0 30 7 * * MON-FRI")                                   // cron: 6 fields, or 5
		        .calendar(ScheduleCalendar.builder().hour("9-17").minute("*/15").dayOfWeek("MON-FRI")
		            .comment("office hours").build())                         // unset fields: second/minute/hour 0, rest *
		        .interval(Duration.ofHours(4), Duration.ofMinutes(5))        // 00:05, 04:05, ... (epoch-aligned, UTC)
		        .skipCron("* * 12 * * *")                                     // no firing in the noon hour
		        .skip(ScheduleCalendar.builder().second("*").minute("*").hour("*").dayOfMonth("25").month("12").build())
		        .timeZone("Europe/Berlin")                                    // calendars and skips; one zone per spec
		        .build(),
		    ScheduleAction.startWorkflow("sync", null))
		    .withRemainingActions(10));
		schedules.update("office-sync", s -> s.withRemainingActions(s.remainingActions() + 5));

		schedules.pause("nightly-report", "database maintenance");
		schedules.trigger("nightly-report");                                   // once, now
		schedules.backfill("nightly-report", Instant.parse("2026-01-01T00:00:00Z"),
		    Instant.parse("2026-01-08T00:00:00Z"), ScheduleOverlapPolicy.ALLOW_ALL);   // the times of [start, end)
		schedules.unpause("nightly-report", null);
		schedules.update("nightly-report", s -> s.withSpec(ScheduleSpec.cron("0 0 3 * * *", ZoneId.of("Europe/Berlin"))));
		ScheduleDescription d = schedules.describe("nightly-report");         // next times, recent actions, running ids, counts
		schedules.delete("nightly-report");                                     // running workflows keep running
		// end-snippet
		// @formatter:on
	}

	static BatchStatus batch(WorkflowClient client) {
		// @formatter:off
		// snippet:schedules-batch
		BatchStatus batch = client.startBatch(BatchRequest
		    .signal(WorkflowFilter.ofType("order").status(WorkflowStatus.RUNNING).eq("carrier", "acme"),
		        "carrierChanged", new CarrierChange("acme", "zenith"))
		    .withBatchId("carrier-switch-2026-12"));          // optional; a retried start returns this batch
		client.describeBatch("carrier-switch-2026-12");       // state, total, processed, succeeded, skipped, failed
		client.listBatches(20);                               // newest first
		client.cancelBatch("carrier-switch-2026-12");         // stops after the page under way
		// end-snippet
		// @formatter:on
		return batch;
	}

}
