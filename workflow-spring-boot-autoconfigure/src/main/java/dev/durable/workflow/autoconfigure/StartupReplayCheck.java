package dev.durable.workflow.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

import dev.durable.workflow.engine.ReplayCheckOptions;
import dev.durable.workflow.engine.ReplayCheckReport;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * The replay check of a node at startup
 * ({@code durable.workflow.replay-check.on-startup}): once the engine has started, a
 * background thread replays a sample of the open runs of each workflow type the node
 * registers on its code and logs the types it would not replay, with the first mismatch
 * of each run; the {@code durableReplayCheck} health contributor reports the outcome. The
 * check changes nothing: a run it would not replay stays as it is (its next workflow
 * task, on this node, fails and retries visibly).
 */
public final class StartupReplayCheck implements SmartLifecycle {

	/** The phase: right after the engine's ({@link WorkflowEngineLifecycle#PHASE}). */
	public static final int PHASE = WorkflowEngineLifecycle.PHASE + 1;

	private static final Logger log = LoggerFactory.getLogger(StartupReplayCheck.class);

	/** How many runs that do not replay are logged one by one. */
	private static final int LOGGED_FAILURES = 10;

	private static final Duration STOP_WAIT = Duration.ofSeconds(10);

	private final WorkflowEngine engine;

	private final ReplayCheckOptions options;

	private volatile @Nullable Thread thread;

	private volatile @Nullable ReplayCheckReport report;

	private volatile @Nullable String error;

	/**
	 * @param sampleSize how many open runs of each type are replayed
	 */
	public StartupReplayCheck(WorkflowEngine engine, int sampleSize) {
		this.engine = engine;
		this.options = ReplayCheckOptions.defaults().withOpenRunsOnly(true).withSampleSize(sampleSize);
	}

	/** The check's report, or {@code null} while it runs (or when it could not run). */
	public @Nullable ReplayCheckReport report() {
		return this.report;
	}

	/** Why the check could not run (the database unreachable, say), or {@code null}. */
	public @Nullable String error() {
		return this.error;
	}

	@Override
	public synchronized void start() {
		if (this.thread == null) {
			this.thread = Thread.ofPlatform().daemon().name("durable-replay-check").start(this::check);
		}
	}

	private void check() {
		try {
			ReplayCheckReport checked = this.engine.checkReplay(this.options);
			logged(checked);
			// published after its log: whoever sees the outcome (the health) finds it
			// logged
			this.report = checked;
		}
		catch (RuntimeException ex) {
			log.warn("Replay check at startup could not run: {}", ex.getMessage());
			this.error = ex.getMessage();
		}
	}

	private static void logged(ReplayCheckReport checked) {
		if (checked.passed()) {
			log.info("Replay check: {}", checked.summary());
			return;
		}
		log.warn("Replay check: {}", checked.summary());
		List<ReplayCheckReport.RunFailure> failures = checked.failures();
		failures.stream()
			.limit(LOGGED_FAILURES)
			.forEach((failure) -> log.warn("Run {} ({}) of workflow type {} does not replay on this build: {}",
					failure.workflowId(), failure.runId(), failure.workflowType(), failure.message()));
		if (failures.size() > LOGGED_FAILURES) {
			log.warn("Replay check: {} more runs do not replay (GET /durable/replay-check lists them)",
					failures.size() - LOGGED_FAILURES);
		}
	}

	@Override
	public void stop() {
		Thread running = this.thread;
		if (running == null) {
			return;
		}
		running.interrupt();
		try {
			// the check reads through the application's pool, closed once the context's
			// lifecycle beans have stopped
			running.join(STOP_WAIT);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public boolean isRunning() {
		return this.thread != null;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
