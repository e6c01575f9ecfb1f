package dev.durable.workflow.internal.client;

import java.lang.reflect.Type;
import java.time.Duration;
import java.util.Iterator;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import dev.durable.workflow.client.StreamEntry;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.internal.store.OutputRepository;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.support.OutputKeys;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.worker.ResultWaiters;

/**
 * Reads what runs set and write for clients: events, waiting until one is set, and
 * streams, in order and live. Waiting readers are woken by the commits of outputs: in
 * this JVM at once, from other nodes by a PostgreSQL notification (see
 * {@link ResultWaiters#outputsCommitted}); no reader polls (the node's listener wakes
 * them all every 30 s, in case a notification was lost).
 */
public final class RunOutputs {

	private final OutputRepository outputs;

	private final RunRepository runs;

	private final ResultWaiters waiters;

	private final Payloads payloads;

	public RunOutputs(OutputRepository outputs, RunRepository runs, ResultWaiters waiters, Payloads payloads) {
		this.outputs = outputs;
		this.runs = runs;
		this.waiters = waiters;
		this.payloads = payloads;
	}

	/**
	 * The value of an event, waiting at most the timeout for it to be set.
	 * @param follow whether to go on to the run that follows a closed one
	 * (continue-as-new, retry, cron)
	 * @return the value, or empty when the timeout passed or the run closed without
	 * setting it
	 */
	@SuppressWarnings("unchecked")
	<T> Optional<T> event(String workflowId, UUID firstRunId, boolean follow, String key, Type type, Duration timeout) {
		OutputKeys.check(key, "event");
		if (timeout.isNegative()) {
			throw new IllegalArgumentException("The timeout must not be negative, was " + timeout);
		}
		long deadline = System.nanoTime() + Math.min(timeout.toNanos(), Long.MAX_VALUE / 4);
		UUID runId = firstRunId;
		while (true) {
			CompletableFuture<Object> changed = this.waiters.future(ResultWaiters.outputKey(runId));
			Optional<byte[]> value = this.outputs.event(runId, key);
			if (value.isPresent()) {
				return Optional.of((T) this.payloads.decode(value.get(), type,
						"the value of event '" + key + "' of workflow " + workflowId));
			}
			UUID reading = runId;
			RunRepository.Outcome outcome = this.runs.outcome(runId)
				.orElseThrow(
						() -> new WorkflowNotFoundException("No run " + reading + " of workflow '" + workflowId + "'"));
			if (outcome.status() != RunStatus.RUNNING) {
				if (follow && outcome.nextRunId() != null) {
					runId = outcome.nextRunId();
					continue;
				}
				// a closed run sets nothing more; read once more for a set committed with
				// the close
				return this.outputs.event(runId, key)
					.map((bytes) -> (T) this.payloads.decode(bytes, type, "the value of event '" + key + "'"));
			}
			if (!this.waiters.pause(changed, deadline, StreamReader.NO_RECHECK)) {
				return Optional.empty();
			}
		}
	}

	/**
	 * A run's stream from an offset on, blocking and live until the stream ends or the
	 * run closes.
	 */
	<T> Stream<StreamEntry<T>> stream(String workflowId, UUID runId, String key, long fromOffset, Type type) {
		OutputKeys.check(key, "stream");
		if (fromOffset < 0) {
			throw new IllegalArgumentException("The offset must not be negative, was " + fromOffset);
		}
		if (this.runs.outcome(runId).isEmpty()) {
			throw new WorkflowNotFoundException("No run " + runId + " of workflow '" + workflowId + "'");
		}
		StreamReader<T> reader = new StreamReader<>(this.outputs, this.runs, this.waiters, this.payloads, runId, key,
				fromOffset, type);
		return StreamSupport.stream(reader, false).onClose(reader::close);
	}

	/**
	 * A run's stream as a publisher: each subscriber reads from the offset on its own
	 * virtual thread, as fast as it requests.
	 */
	<T> Flow.Publisher<StreamEntry<T>> publisher(String workflowId, UUID runId, String key, long fromOffset,
			Type type) {
		// checks the key, the offset and the run now, not at the subscription
		stream(workflowId, runId, key, fromOffset, type).close();
		return (subscriber) -> {
			Stream<StreamEntry<T>> stream = stream(workflowId, runId, key, fromOffset, type);
			Iterator<StreamEntry<T>> values = stream.iterator();
			AtomicBoolean cancelled = new AtomicBoolean();
			java.util.concurrent.Semaphore demand = new java.util.concurrent.Semaphore(0);
			subscriber.onSubscribe(new Flow.Subscription() {

				@Override
				public void request(long n) {
					if (n <= 0) {
						cancel();
						subscriber
							.onError(new IllegalArgumentException("Requested " + n + " values: must be positive"));
						return;
					}
					if (demand.availablePermits() < Integer.MAX_VALUE / 4) {
						demand.release((int) Math.min(n, Integer.MAX_VALUE / 4));
					}
				}

				@Override
				public void cancel() {
					if (cancelled.compareAndSet(false, true)) {
						stream.close();
						demand.release();
					}
				}

			});
			Thread.ofVirtual().name("durable-stream-" + key).start(() -> {
				try {
					while (!cancelled.get()) {
						demand.acquire();
						if (cancelled.get()) {
							return;
						}
						if (!values.hasNext()) {
							if (!cancelled.get()) {
								subscriber.onComplete();
							}
							return;
						}
						subscriber.onNext(values.next());
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				catch (RuntimeException ex) {
					if (!cancelled.get()) {
						subscriber.onError(ex);
					}
				}
				finally {
					stream.close();
				}
			});
		};
	}

}
