package dev.durable.workflow.internal.activity;

import java.lang.reflect.Type;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.internal.support.Payloads;

/**
 * One attempt of an activity: the {@link ActivityContext} its code sees, and the
 * single-winner race between its own completion, a timeout and a cancel.
 */
public final class ActivityAttempt implements ActivityContext {

	private static final ThreadLocal<ActivityAttempt> CURRENT = new ThreadLocal<>();

	private final ActivityInfo info;

	private final Payloads payloads;

	private final Consumer<byte[]> heartbeatSink;

	private final AtomicBoolean finished = new AtomicBoolean();

	private volatile byte[] heartbeatDetails;

	private final java.time.Clock clock;

	private volatile java.time.Instant lastHeartbeatAt;

	private volatile boolean cancelRequested;

	private volatile boolean pauseRequested;

	private volatile Thread thread;

	private final java.util.function.Supplier<String> taskToken;

	private volatile boolean async;

	/**
	 * @param taskToken gives the attempt's task token, first making it valid when it is
	 * not yet (an inline attempt writes its row then); called by {@link #taskToken()} and
	 * {@link #doNotCompleteOnReturn()}
	 */
	public ActivityAttempt(ActivityInfo info, byte[] heartbeatDetails, Payloads payloads,
			Consumer<byte[]> heartbeatSink, java.time.Clock clock, java.util.function.Supplier<String> taskToken) {
		this.taskToken = taskToken;
		this.clock = clock;
		this.lastHeartbeatAt = clock.instant();
		this.info = info;
		this.heartbeatDetails = heartbeatDetails;
		this.payloads = payloads;
		this.heartbeatSink = heartbeatSink;
	}

	public static ActivityContext current() {
		ActivityAttempt attempt = CURRENT.get();
		if (attempt == null) {
			throw new IllegalStateException("ActivityContext.current() is only valid inside an activity execution");
		}
		return attempt;
	}

	public void bind() {
		this.thread = Thread.currentThread();
		CURRENT.set(this);
	}

	public void unbind() {
		CURRENT.remove();
		this.thread = null;
	}

	/** Claims the outcome of this attempt; only the first caller wins. */
	public boolean finish() {
		return this.finished.compareAndSet(false, true);
	}

	public boolean isFinished() {
		return this.finished.get();
	}

	/**
	 * Stops the attempt's code as far as it listens (interrupt,
	 * {@link #isCancelRequested()}).
	 */
	public void cancel() {
		this.cancelRequested = true;
		Thread running = this.thread;
		if (running != null) {
			running.interrupt();
		}
	}

	/** When the attempt started or last heartbeated, by the engine clock. */
	public java.time.Instant lastHeartbeatAt() {
		return this.lastHeartbeatAt;
	}

	public byte[] lastHeartbeat() {
		return this.heartbeatDetails;
	}

	@Override
	public ActivityInfo info() {
		return this.info;
	}

	@Override
	public void heartbeat(Object details) {
		byte[] encoded = this.payloads.encode(details, Object.class,
				"heartbeat details of " + this.info.activityType());
		this.heartbeatDetails = encoded;
		this.lastHeartbeatAt = this.clock.instant();
		this.heartbeatSink.accept(encoded);
	}

	@Override
	public <T> T heartbeatDetails(Class<T> type) {
		return type.cast(heartbeatDetails((Type) type));
	}

	@Override
	public Object heartbeatDetails(Type type) {
		byte[] details = this.heartbeatDetails;
		return (details != null) ? this.payloads.decode(details, type, "heartbeat details") : null;
	}

	@Override
	public String taskToken() {
		return this.taskToken.get();
	}

	@Override
	public void doNotCompleteOnReturn() {
		// the token must name the attempt before the method hands it to whoever completes
		// it
		this.taskToken.get();
		this.async = true;
	}

	/**
	 * A heartbeat of this attempt came through the completion client (recorded in its
	 * row).
	 */
	public void heartbeatRecordedAt(java.time.Instant at) {
		if (at.isAfter(this.lastHeartbeatAt)) {
			this.lastHeartbeatAt = at;
		}
	}

	/**
	 * An attempt taken over from another node's row: its heartbeat timeout counts from
	 * the last heartbeat (or start) the row recorded, not from the takeover.
	 */
	public void resumedFrom(java.time.Instant lastHeartbeatAt) {
		this.lastHeartbeatAt = lastHeartbeatAt;
	}

	/** What gives this attempt's task token (as given to the constructor). */
	public java.util.function.Supplier<String> tokenSource() {
		return this.taskToken;
	}

	/** Whether the method's return leaves the attempt to the completion client. */
	public boolean completesAsynchronously() {
		return this.async;
	}

	@Override
	public boolean isCancelRequested() {
		return this.cancelRequested;
	}

	/** What the last recorded heartbeat found: whether the activity is paused. */
	public void pauseSeen(boolean paused) {
		this.pauseRequested = paused;
	}

	@Override
	public boolean isPauseRequested() {
		return this.pauseRequested;
	}

}
