package dev.durable.workflow.internal.worker;

import java.lang.reflect.InvocationTargetException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import dev.durable.workflow.client.QueryFailedException;
import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.TaskRepository;
import dev.durable.workflow.internal.support.Payloads;

/**
 * Answers queries from committed state: against the live cached instance when this node
 * owns the run and no task is running, otherwise by a read-only replay of the stored
 * history on this node (kept in a small cache keyed by run and history length). No node
 * calls another.
 */
final class QueryExecutor {

	private static final int REPLAY_CACHE_SIZE = 32;

	private record Replayed(int historySeq, WorkflowRunner runner) {
	}

	private final Map<UUID, RunSlot> slots;

	private final TaskRepository tasks;

	private final WorkflowRegistry workflows;

	private final Function<Class<?>, Object> factory;

	private final Payloads payloads;

	private final EngineSettings config;

	private final Map<UUID, Replayed> replayed = new LinkedHashMap<>(16, 0.75f, true) {
		@Override
		protected boolean removeEldestEntry(Map.Entry<UUID, Replayed> eldest) {
			if (size() > REPLAY_CACHE_SIZE) {
				eldest.getValue().runner().destroy();
				return true;
			}
			return false;
		}
	};

	QueryExecutor(Map<UUID, RunSlot> slots, TaskRepository tasks, WorkflowCode code, EngineSettings config) {
		this.slots = slots;
		this.tasks = tasks;
		this.workflows = code.workflows();
		this.factory = code.factory();
		this.payloads = code.payloads();
		this.config = config;
	}

	byte[] query(RunRow row, String name, byte[] argument) {
		return read(row, (runner) -> run(runner, name, argument));
	}

	/** What the run's code last set as its current details, or {@code null}. */
	String currentDetails(RunRow row) {
		return read(row, WorkflowRunner::currentDetails);
	}

	/** What the run's code waits for now (see {@link WorkflowRunner#waitingOn()}). */
	List<RunWait> waitingOn(RunRow row) {
		return read(row, WorkflowRunner::waitingOn);
	}

	/**
	 * Reads the run's committed state: from the cached instance when this node holds it
	 * idle, else from a replay.
	 */
	private <T> T read(RunRow row, Function<WorkflowRunner, T> reader) {
		Optional<Read<T>> live = readLive(row, reader);
		if (live.isPresent()) {
			return live.get().value();
		}
		WorkflowRunner runner = replayedRunner(row);
		synchronized (runner) {
			return reader.apply(runner);
		}
	}

	/** What the cached instance answered, which may be {@code null}. */
	private record Read<T>(T value) {
	}

	private <T> Optional<Read<T>> readLive(RunRow row, Function<WorkflowRunner, T> reader) {
		RunSlot slot = this.slots.get(row.runId());
		if (slot == null || slot.isDead()) {
			return Optional.empty();
		}
		try {
			if (!slot.tryLockTask(200, TimeUnit.MILLISECONDS)) {
				return Optional.empty();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Optional.empty();
		}
		try {
			WorkflowRunner runner = slot.runner();
			if (runner == null || slot.isDead() || runner.historySeq() != row.historySeq()) {
				return Optional.empty();
			}
			return Optional.of(new Read<>(reader.apply(runner)));
		}
		finally {
			slot.unlockTask();
		}
	}

	private WorkflowRunner replayedRunner(RunRow row) {
		synchronized (this.replayed) {
			Replayed cached = this.replayed.get(row.runId());
			if (cached != null && cached.historySeq() == row.historySeq()) {
				return cached.runner();
			}
		}
		WorkflowDefinition definition = this.workflows.find(row.workflowType());
		if (definition == null) {
			throw new QueryFailedException("Workflow type '" + row.workflowType()
					+ "' is not registered on this node, so it cannot answer queries");
		}
		WorkflowRunner runner = Replays.newRunner(row, definition, this.factory, this.payloads, this.config);
		try {
			Replays.replay(runner, this.tasks.history(row.runId()), (record, issued) -> {
			});
		}
		catch (RuntimeException ex) {
			runner.destroy();
			throw new QueryFailedException(
					"Cannot replay run " + row.runId() + " to answer the query: " + ex.getMessage(), ex);
		}
		synchronized (this.replayed) {
			Replayed previous = this.replayed.put(row.runId(), new Replayed(row.historySeq(), runner));
			if (previous != null && previous.runner() != runner) {
				previous.runner().destroy();
			}
		}
		return runner;
	}

	private byte[] run(WorkflowRunner runner, String name, byte[] argument) {
		try {
			return runner.query(name, argument);
		}
		catch (InvocationTargetException ex) {
			Throwable cause = ex.getTargetException();
			throw new QueryFailedException("Query '" + name + "' failed: " + cause, cause);
		}
		catch (IllegalArgumentException ex) {
			throw new UnknownHandlerException(ex.getMessage(), ex);
		}
		catch (IllegalStateException ex) {
			throw new QueryFailedException("Query '" + name + "' failed: " + ex.getMessage(), ex);
		}
		catch (RuntimeException ex) {
			throw new QueryFailedException("Query '" + name + "' failed: " + ex, ex);
		}
	}

	void clear() {
		synchronized (this.replayed) {
			this.replayed.values().forEach((r) -> r.runner().destroy());
			this.replayed.clear();
		}
	}

}
