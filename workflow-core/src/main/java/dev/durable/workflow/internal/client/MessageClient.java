package dev.durable.workflow.internal.client;

import java.io.Serializable;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.Optional;
import java.util.UUID;

import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.internal.registry.MessageHandlers;
import dev.durable.workflow.internal.registry.MessageHandlers.Handler;
import dev.durable.workflow.internal.registry.MessageHandlers.Kind;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.worker.Engine;

/**
 * Signals, queries and updates from the client: payloads encoded with the handler's declared
 * type when this node knows the workflow type, names checked, rows written in one transaction.
 */
final class MessageClient {

	private final Engine engine;

	MessageClient(Engine engine) {
		this.engine = engine;
	}

	/** The handler name a method reference names, checking it is a handler of that kind. */
	static String handlerName(Serializable reference, Kind kind) {
		Method method = MethodReferences.resolve(reference);
		WorkflowDefinition definition = WorkflowDefinitions.of(method.getDeclaringClass());
		Handler handler = definition.handlers().byMethod(method);
		if (handler == null || definition.handlers().find(kind, handler.name()) != handler) {
			throw new IllegalArgumentException(method + " is not a @" + switch (kind) {
				case SIGNAL -> "SignalMethod";
				case QUERY -> "QueryMethod";
				case UPDATE -> "UpdateMethod";
			});
		}
		return handler.name();
	}

	/** The declared payload type of a handler, or Object when this node does not know it. */
	Type payloadType(String workflowType, Kind kind, String name, boolean required) {
		WorkflowDefinition definition = this.engine.workflows().find(workflowType);
		if (definition == null) {
			return Object.class;
		}
		MessageHandlers handlers = definition.handlers();
		Handler handler = handlers.find(kind, name);
		if (handler == null) {
			if (required) {
				throw new UnknownHandlerException("Workflow type " + workflowType + " has no "
						+ kind.name().toLowerCase() + " handler '" + name + "' (known: " + handlers.names(kind) + ")");
			}
			return Object.class;
		}
		Type type = handler.payloadType();
		return (type == null || handler.dynamic()) ? Object.class : type;
	}

	/** Encodes a message payload; a handler without parameter takes no payload. */
	byte[] encode(String workflowType, Kind kind, String name, Object payload, boolean required) {
		Type type = payloadType(workflowType, kind, name, required);
		return this.engine.payloads().encode(payload, type, "the payload of " + kind.name().toLowerCase() + " " + name);
	}

	void signal(RunRow row, String name, Object payload, String idempotencyKey) {
		byte[] encoded = encode(row.workflowType(), Kind.SIGNAL, name, payload, false);
		Optional<UUID> owner = this.engine.tx().execute((status) -> {
			if (idempotencyKey != null && !this.engine.dedup()
				.recordSignalKey(row.namespace(), row.workflowId(), idempotencyKey, row.runId())) {
				return null; // a retried send: the first one was stored, nothing changes
			}
			return this.engine.runs()
				.sendToInbox(row.runId(), "SIGNAL", name, encoded)
				.orElseThrow(() -> closed(row));
		});
		if (owner != null) {
			this.engine.wake(row.runId(), owner.orElse(null));
		}
	}

	/** How long a query waits for a just-started run's first workflow task (whose code builds the state). */
	private static final long FIRST_TASK_WAIT_MILLIS = 5_000;

	byte[] query(RunRow row, String name, Object argument) {
		byte[] encoded = encode(row.workflowType(), Kind.QUERY, name, argument, true);
		return this.engine.query(firstTaskDone(row), name, encoded);
	}

	/**
	 * A run that has not run its first workflow task has no state to query yet: right after a
	 * start that is a matter of milliseconds, so wait for it (bounded) instead of failing.
	 */
	private RunRow firstTaskDone(RunRow row) {
		long deadline = System.nanoTime() + FIRST_TASK_WAIT_MILLIS * 1_000_000;
		RunRow current = row;
		while (current.isOpen() && current.historySeq() == 0 && System.nanoTime() < deadline) {
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return current;
			}
			current = this.engine.runs().find(row.runId()).orElse(current);
		}
		return current;
	}

	<T> UpdateHandleImpl<T> startUpdate(RunRow row, String name, Object argument, Type resultType,
			UpdateOptions options) {
		byte[] encoded = encode(row.workflowType(), Kind.UPDATE, name, argument, true);
		String updateId = (options.updateId() != null) ? options.updateId() : UUID.randomUUID().toString();
		Optional<UUID> owner = this.engine.tx().execute((status) -> {
			if (!this.engine.dedup().admitUpdate(row.namespace(), row.workflowId(), updateId, row.runId())) {
				return null; // a retried update id: its stored outcome answers
			}
			return this.engine.runs()
				.sendToInbox(row.runId(), "UPDATE", name, encoded, updateId)
				.orElseThrow(() -> closed(row));
		});
		if (owner != null) {
			this.engine.wake(row.runId(), owner.orElse(null));
		}
		UpdateHandleImpl<T> handle = new UpdateHandleImpl<>(this.engine, row.workflowId(), updateId, resultType);
		handle.waitFor(options.waitForStage(), null);
		return handle;
	}

	<T> UpdateHandleImpl<T> updateHandle(String workflowId, String updateId, Type resultType) {
		return new UpdateHandleImpl<>(this.engine, workflowId, updateId, resultType);
	}

	private WorkflowClosedException closed(RunRow row) {
		return new WorkflowClosedException("Workflow " + row.workflowId() + " (run " + row.runId() + ") is closed: "
				+ this.engine.runs().find(row.runId()).map(RunRow::status).orElse(row.status()));
	}


}
