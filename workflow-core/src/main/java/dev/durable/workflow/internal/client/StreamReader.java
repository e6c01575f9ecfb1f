package dev.durable.workflow.internal.client;

import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Spliterator;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import dev.durable.workflow.client.StreamEntry;
import dev.durable.workflow.internal.store.OutputRepository;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.worker.ResultWaiters;

/**
 * Reads a run's stream in order from an offset, blocking for values not written yet: it
 * reads a page of rows, and when there is none waits for the run's next commit of outputs
 * (woken in this JVM at once, from other nodes by a notification). It ends at the
 * stream's end row, or once the run is closed and every row is read.
 */
final class StreamReader<T> implements Spliterator<StreamEntry<T>> {

	/** Rows read per round trip. */
	private static final int PAGE = 256;

	/**
	 * Readers wait for a wake-up with no timer of their own: notifications wake them, and
	 * the node's listener wakes every reader every 30 s in case one was lost (see
	 * WakeupChannel).
	 */
	static final long NO_RECHECK = Long.MAX_VALUE;

	private final OutputRepository outputs;

	private final RunRepository runs;

	private final ResultWaiters waiters;

	private final Payloads payloads;

	private final UUID runId;

	private final String key;

	private final Type type;

	private final Deque<OutputRepository.StreamRow> page = new ArrayDeque<>();

	private long next;

	private boolean ended;

	private volatile boolean closed;

	StreamReader(OutputRepository outputs, RunRepository runs, ResultWaiters waiters, Payloads payloads, UUID runId,
			String key, long fromOffset, Type type) {
		this.outputs = outputs;
		this.runs = runs;
		this.waiters = waiters;
		this.payloads = payloads;
		this.runId = runId;
		this.key = key;
		this.next = fromOffset;
		this.type = type;
	}

	@Override
	@SuppressWarnings("unchecked")
	public boolean tryAdvance(Consumer<? super StreamEntry<T>> action) {
		Object waitKey = ResultWaiters.outputKey(this.runId);
		while (!this.ended && !this.closed) {
			OutputRepository.StreamRow row = this.page.poll();
			if (row != null) {
				if (row.isEnd()) {
					this.ended = true;
					return false;
				}
				this.next = row.offset() + 1;
				action.accept(new StreamEntry<>(row.offset(), (T) this.payloads.decode(row.value(), this.type,
						"value " + row.offset() + " of stream '" + this.key + "'")));
				return true;
			}
			// the future before the read: a commit after the read completes it
			CompletableFuture<Object> changed = this.waiters.future(waitKey);
			if (readPage()) {
				continue;
			}
			boolean open = this.runs.outcome(this.runId).map((o) -> o.status() == RunStatus.RUNNING).orElse(false);
			if (!open) {
				// the close committed with the last rows: one more read sees them
				this.ended = !readPage();
				continue;
			}
			this.waiters.pause(changed, Long.MAX_VALUE, NO_RECHECK);
		}
		return false;
	}

	private boolean readPage() {
		this.page.addAll(this.outputs.stream(this.runId, this.key, this.next, PAGE));
		return !this.page.isEmpty();
	}

	/** Stops the reader: a blocked {@link #tryAdvance} returns {@code false}. */
	void close() {
		this.closed = true;
		this.waiters.closed(ResultWaiters.outputKey(this.runId));
	}

	@Override
	public Spliterator<StreamEntry<T>> trySplit() {
		return null;
	}

	@Override
	public long estimateSize() {
		return Long.MAX_VALUE;
	}

	@Override
	public int characteristics() {
		return ORDERED | NONNULL;
	}

}
