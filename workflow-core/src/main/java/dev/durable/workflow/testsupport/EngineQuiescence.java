package dev.durable.workflow.testsupport;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What the test kit's time skipping asks of an engine node: whether anything runs or is
 * due, and when something next becomes due. Not for applications; no compatibility
 * promise beyond the test kit of the same version.
 */
public interface EngineQuiescence {

	/**
	 * Whether nothing runs on this node right now: no workflow task, activity attempt or
	 * due action in memory.
	 */
	boolean isIdle();

	/**
	 * Whether activity code runs on this node right now: an inline attempt whose method
	 * has not returned, or an attempt claimed from a task queue. An attempt waiting for
	 * asynchronous completion after its method returned does not count. While one runs,
	 * the test kit lets its clock run at real speed, so that timers, timeouts and retries
	 * come due during the attempt as they would on a real clock.
	 */
	boolean anyActivityInFlight();

	/**
	 * Whether a caller on this node waits for a result or an update outcome that has not
	 * come yet.
	 */
	boolean anyCallerBlocked();

	/**
	 * Whether something in the engine's namespace is runnable at {@code now} by the
	 * database: unseen input, a due wake time, activity attempt or schedule.
	 */
	boolean anyDue(Instant now);

	/**
	 * The earliest time after {@code now} at which something in the namespace becomes
	 * runnable (a timer, a retry, a schedule's firing), or {@code null} when nothing
	 * waits for a time.
	 */
	@Nullable Instant nextDue(Instant now);

}
