package dev.durable.workflow.internal.worker;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/** Callers waiting for a run to close, woken in the same JVM the moment it closes. */
public final class ResultWaiters {

	private final Map<UUID, CompletableFuture<Void>> waiters = new ConcurrentHashMap<>();

	public CompletableFuture<Void> future(UUID runId) {
		return this.waiters.computeIfAbsent(runId, (id) -> new CompletableFuture<>());
	}

	public void closed(UUID runId) {
		CompletableFuture<Void> future = this.waiters.remove(runId);
		if (future != null) {
			future.complete(null);
		}
	}

	public void forget(UUID runId, CompletableFuture<Void> future) {
		if (!future.isDone()) {
			return;
		}
		this.waiters.remove(runId, future);
	}

}
