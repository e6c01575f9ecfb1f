package dev.durable.workflow.internal.worker;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.internal.store.RunRepository;

/**
 * Callers waiting for a run to close (by run id) or an update to progress (by update id),
 * woken in this JVM at once. A close decided by this node's own task commit hands its
 * outcome over with the wake-up, so the waiter need not read it back from the database. A
 * caller waiting for a run this node does not hold marks the run awaited; its close,
 * wherever it is committed, then sends one notification that wakes the run's waiters on
 * every node ({@link #closedElsewhere}).
 */
public final class ResultWaiters {

	private final Map<Object, CompletableFuture<Object>> waiters = new ConcurrentHashMap<>();

	/**
	 * Update waiters (their keys) by the run held elsewhere that decides their update.
	 */
	private final Map<UUID, java.util.Set<String>> updatesByRun = new ConcurrentHashMap<>();

	/** The futures callers pause on right now, with how many callers pause on each. */
	private final Map<CompletableFuture<Object>, Integer> paused = new ConcurrentHashMap<>();

	/**
	 * How long a waiter for another node's close waits before it reads the run again by
	 * itself; by default never: the close's notification wakes it, and the listener wakes
	 * every waiter when it reconnects and every 30 seconds in case a notification was
	 * lost.
	 */
	private volatile long resultRecheckMillis = Long.MAX_VALUE;

	/**
	 * Sends the news of an awaited run's close to the other nodes (set once the node
	 * listens).
	 */
	private volatile java.util.function.Consumer<UUID> closeNews = (runId) -> {
	};

	/**
	 * Sends the news of a run's new outputs to the other nodes (set once the node
	 * listens).
	 */
	private volatile java.util.function.Consumer<UUID> outputNews = (runId) -> {
	};

	/** The key under which readers of a run's events and streams wait. */
	public static Object outputKey(UUID runId) {
		return new OutputKey(runId);
	}

	/**
	 * The key of the readers of a run's outputs: apart from the run's own key (its
	 * result).
	 */
	private record OutputKey(UUID runId) {
	}

	/**
	 * A task of this node committed outputs of the run (or closed a run that has
	 * outputs): its readers here are woken at once, those on other nodes by a
	 * notification.
	 */
	public void outputsCommitted(UUID runId) {
		closed(outputKey(runId));
		this.outputNews.accept(runId);
	}

	/**
	 * Another node committed outputs of the run; {@code null}: anything may have changed
	 * (the listener reconnected after missing notifications), every reader re-reads.
	 */
	public void outputsCommittedElsewhere(@Nullable UUID runId) {
		if (runId != null) {
			closed(outputKey(runId));
			return;
		}
		for (Object key : this.waiters.keySet()) {
			if (key instanceof OutputKey) {
				closed(key);
			}
		}
	}

	/**
	 * Sets how the news of a run's new outputs and of an awaited run's close reach the
	 * other nodes (notifications).
	 */
	public void sendNewsWith(java.util.function.Consumer<UUID> outputs, java.util.function.Consumer<UUID> closes) {
		this.outputNews = outputs;
		this.closeNews = closes;
	}

	/**
	 * A commit this node made (a close, or update outcomes) found the run awaited by a
	 * node that does not hold it: the nodes are told (after the commit), their waiters
	 * read what changed.
	 */
	public void awaitedCommitted(UUID runId) {
		this.closeNews.accept(runId);
	}

	/**
	 * Registers an update waiter with the run that decides its update, held on another
	 * node: the news of that run's commits ({@link #closedElsewhere}) wakes it.
	 */
	public void awaitUpdateOf(UUID runId, String updateKey) {
		this.updatesByRun.computeIfAbsent(runId, (id) -> ConcurrentHashMap.newKeySet()).add(updateKey);
	}

	/**
	 * Another node closed an awaited run or decided updates of it: its result and update
	 * waiters here read what changed; {@code null}: anything may have changed (the
	 * listener reconnected, or its periodic sweep), every result and update waiter reads.
	 */
	public void closedElsewhere(@Nullable UUID runId) {
		if (runId != null) {
			wake(runId);
			java.util.Set<String> updates = this.updatesByRun.remove(runId);
			if (updates != null) {
				updates.forEach(this::closed);
			}
			return;
		}
		this.updatesByRun.clear();
		for (Object key : this.waiters.keySet()) {
			if (key instanceof UUID run) {
				wake(run);
			}
			else if (key instanceof String update) {
				closed(update);
			}
		}
	}

	/**
	 * Wakes the result waiters of a run without an outcome (they read the run): another
	 * node closed it, or it left this node (a waiter then marks it awaited).
	 */
	public void wake(UUID runId) {
		CompletableFuture<Object> future = this.waiters.remove(runId);
		if (future != null) {
			future.complete(null);
		}
	}

	/**
	 * How long a waiter for a run closed on another node pauses before it reads the run
	 * again by itself, in case every notification and sweep failed
	 * ({@link Long#MAX_VALUE}: never).
	 */
	public long resultRecheckMillis() {
		return this.resultRecheckMillis;
	}

	/**
	 * Sets the fallback re-read of {@link #resultRecheckMillis} (tests, or a node without
	 * LISTEN).
	 */
	public void recheckResultsEvery(java.time.Duration interval) {
		this.resultRecheckMillis = interval.toMillis();
	}

	/** The key under which waiters of an update wait. */
	public static String updateKey(String workflowId, String updateId) {
		return "update:" + workflowId + "/" + updateId;
	}

	public CompletableFuture<Object> future(Object runId) {
		return this.waiters.computeIfAbsent(runId, (id) -> new CompletableFuture<>());
	}

	/** Wakes the waiters of a key; they read what changed from the database. */
	public void closed(Object runId) {
		closed(runId, null);
	}

	/**
	 * Wakes the waiters of a run with the outcome its close committed.
	 * @param outcome the committed outcome, or {@code null} when the waiters must read it
	 */
	public void closed(Object runId, RunRepository.Outcome outcome) {
		CompletableFuture<Object> future = this.waiters.remove(runId);
		if (future != null) {
			future.complete(outcome);
		}
		if (runId instanceof UUID run) {
			// a closed run writes nothing more: its stream readers finish
			closed(outputKey(run));
		}
	}

	/** The outcome a completed future was handed, or {@code null}. */
	public static RunRepository.Outcome handedOver(CompletableFuture<Object> future) {
		return (future.getNow(null) instanceof RunRepository.Outcome outcome) ? outcome : null;
	}

	/**
	 * Waits for a wake-up of the future, at most until the next re-check (another node
	 * may have made the progress) or the deadline.
	 * @return false when the deadline passed
	 */
	public boolean pause(CompletableFuture<Object> future, long deadlineNanos, long recheckMillis) {
		long left = deadlineNanos - System.nanoTime();
		if (left <= 0) {
			return false;
		}
		this.paused.merge(future, 1, Integer::sum);
		try {
			if (deadlineNanos == Long.MAX_VALUE && recheckMillis == Long.MAX_VALUE) {
				future.get(); // no timer: only a wake-up ends the pause
			}
			else {
				future.get(Math.min(java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(left) + 1, recheckMillis),
						java.util.concurrent.TimeUnit.MILLISECONDS);
			}
		}
		catch (java.util.concurrent.TimeoutException ex) {
			// re-read
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new WorkflowHandle.WorkflowTimeoutException("Interrupted while waiting", null);
		}
		catch (java.util.concurrent.ExecutionException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			this.paused.computeIfPresent(future, (f, n) -> (n > 1) ? n - 1 : null);
		}
		return true;
	}

	/** How many callers wait in {@link #pause} right now, woken or not. */
	public int waiting() {
		return this.paused.values().stream().mapToInt(Integer::intValue).sum();
	}

	/**
	 * Whether a caller waits in {@link #pause} for something that has not happened yet: a
	 * caller whose future was completed counts no more, even before its thread has left
	 * the pause. The test kit skips time only for blocked callers; a caller just handed
	 * its update outcome or result is about to go on, and time must not move under it.
	 */
	public boolean anyBlocked() {
		for (CompletableFuture<Object> future : this.paused.keySet()) {
			if (!future.isDone()) {
				return true;
			}
		}
		return false;
	}

	public void forget(Object runId, CompletableFuture<Object> future) {
		if (!future.isDone()) {
			return;
		}
		this.waiters.remove(runId, future);
	}

}
