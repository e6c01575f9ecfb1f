package dev.durable.workflow.internal.client;

import java.lang.reflect.Type;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.client.DebounceOptions;
import dev.durable.workflow.client.DebouncedStart;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.failure.WorkflowException;
import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.internal.support.InternalJson;
import dev.durable.workflow.internal.support.Payloads;

/**
 * Debounced starts: a call opens or moves its key's window in the database; the worker
 * nodes' firing loop starts the window's run once it is due, in the transaction that
 * deletes the window, so that exactly one run starts per window whichever nodes the calls
 * came from and whichever node fires. Time is the engine's clock.
 */
public final class Debouncer {

	private static final Logger log = LoggerFactory.getLogger(Debouncer.class);

	private static final int BATCH = 50;

	private final String namespace;

	private final Clock clock;

	private final DebounceRepository windows;

	private final RunStarter starter;

	private final Payloads payloads;

	private final TransactionTemplate tx;

	private volatile Runnable changed = () -> {
	};

	public Debouncer(String namespace, Clock clock, JdbcTemplate jdbc, String schema, RunStarter starter,
			Payloads payloads, TransactionTemplate tx) {
		this.namespace = namespace;
		this.clock = clock;
		this.windows = new DebounceRepository(jdbc, schema);
		this.starter = starter;
		this.payloads = payloads;
		this.tx = tx;
	}

	/**
	 * What to call when a window changed here (the local firing loop then recomputes its
	 * wait).
	 */
	public void onChange(Runnable listener) {
		this.changed = listener;
	}

	/**
	 * Opens or moves the key's window with this call's input and start options.
	 * @param inputType the declared input type of the workflow (how the input is encoded)
	 */
	public DebouncedStart call(String workflowType, Type inputType, Object input, DebounceOptions options) {
		this.starter.checkStartable(workflowType);
		StartOptions start = (options.startOptions() != null) ? options.startOptions() : StartOptions.DEFAULT;
		byte[] encoded = this.payloads.encode(input, inputType, "the input of workflow " + workflowType);
		String workflowId = (start.workflowId() != null) ? start.workflowId() : UUID.randomUUID().toString();
		WorkflowIds.check(workflowId);
		StartOptions stored = start.toBuilder().workflowId(null).build();
		DebounceRepository.Window window = this.windows.call(this.namespace, options.key(), workflowType, workflowId,
				encoded, InternalJson.write(stored), this.clock.instant(), options.delay(), options.maxWait());
		this.changed.run();
		return new DebouncedStart(options.key(), window.workflowId(), window.fireAt(), window.calls());
	}

	/**
	 * Starts the runs of the windows due now, each in the transaction that deletes its
	 * window.
	 * @return how many windows fired
	 */
	public int fireDue() {
		int fired = 0;
		for (String key : this.windows.dueKeys(this.namespace, this.clock.instant(), BATCH)) {
			try {
				if (fire(key)) {
					fired++;
				}
			}
			catch (RuntimeException ex) {
				log.warn("Firing debounce window '{}' failed: {}", key, Errors.rootMessage(ex));
			}
		}
		return fired;
	}

	private boolean fire(String key) {
		List<Runnable> afterCommit = new ArrayList<>(1);
		Boolean fired = this.tx.execute((status) -> {
			Optional<DebounceRepository.Window> locked = this.windows.lockDue(this.namespace, key,
					this.clock.instant());
			if (locked.isEmpty()) {
				return false; // another node fires it, or a call moved it
			}
			DebounceRepository.Window window = locked.get();
			StartOptions options = InternalJson.read(window.options(), StartOptions.class)
				.toBuilder()
				.workflowId(window.workflowId())
				.build();
			Object savepoint = status.createSavepoint();
			try {
				afterCommit
					.add(this.starter.startInTransaction(window.workflowType(), window.input(), options).afterCommit());
				status.releaseSavepoint(savepoint);
			}
			catch (WorkflowException | DuplicateKeyException ex) {
				// an id in use or a refused start is the window's outcome, not an error
				// to retry forever
				status.rollbackToSavepoint(savepoint);
				log.warn("Debounce window '{}' ({} calls) did not start workflow {}: {}", key, window.calls(),
						window.workflowId(), ex.getMessage());
			}
			this.windows.delete(this.namespace, key);
			return true;
		});
		afterCommit.forEach(Runnable::run);
		return Boolean.TRUE.equals(fired);
	}

	/** When the earliest open window fires, or {@code null}. */
	public Instant earliestDue() {
		return this.windows.earliestDue(this.namespace);
	}

}
