package dev.durable.workflow.autoconfigure.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import dev.durable.workflow.autoconfigure.StartupReplayCheck;
import dev.durable.workflow.engine.ReplayCheckReport;

/**
 * The {@code durableReplayCheck} health contributor: what the node's replay check at
 * startup found. UNKNOWN while it runs (or when it could not run), UP when every sampled
 * open run replays on this build, OUT_OF_SERVICE when some do not: the build should not
 * serve those types' runs (add the contributor to the readiness group to keep such a node
 * out of rotation).
 */
public final class ReplayCheckHealthIndicator implements HealthIndicator {

	/** How many runs that do not replay the details list. */
	private static final int LISTED_FAILURES = 10;

	private final StartupReplayCheck check;

	public ReplayCheckHealthIndicator(StartupReplayCheck check) {
		this.check = check;
	}

	@Override
	public Health health() {
		ReplayCheckReport report = this.check.report();
		if (report == null) {
			String error = this.check.error();
			return Health.unknown()
				.withDetail("state", (error != null) ? "the check could not run: " + error : "checking")
				.build();
		}
		Health.Builder health = report.passed() ? Health.up() : Health.status(Status.OUT_OF_SERVICE);
		health.withDetail("checked", report.checked()).withDetail("failedTypes", report.failedTypes());
		List<Map<String, Object>> failures = report.failures().stream().limit(LISTED_FAILURES).map((failure) -> {
			Map<String, Object> run = new LinkedHashMap<>();
			run.put("workflowType", failure.workflowType());
			run.put("workflowId", failure.workflowId());
			run.put("runId", failure.runId());
			run.put("kind", failure.kind().name());
			run.put("workflowTask", failure.workflowTask());
			run.put("message", failure.message());
			return run;
		}).toList();
		if (!failures.isEmpty()) {
			health.withDetail("failures", failures);
		}
		return health.build();
	}

}
