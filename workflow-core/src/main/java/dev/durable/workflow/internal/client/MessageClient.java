package dev.durable.workflow.internal.client;

import java.io.Serializable;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.client.EncodedPayload;
import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.engine.HandlerKind;
import dev.durable.workflow.engine.WorkflowInterceptor.ClientOperation;
import dev.durable.workflow.internal.registry.MessageHandlers;
import dev.durable.workflow.internal.registry.MessageHandlers.Handler;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.store.DedupRepository;
import dev.durable.workflow.internal.store.InboxDelivery;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.LatestRunSignal;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.support.Interceptors;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.worker.LocalNode;
import dev.durable.workflow.internal.worker.ResultWaiters;
import dev.durable.workflow.internal.worker.RunWaker;

/**
 * Signals, queries and updates from the client: payloads encoded with the handler's
 * declared type when this node knows the workflow type, names checked, rows written in
 * one transaction.
 */
public final class MessageClient {

	private final String namespace;

	private final WorkflowRegistry workflows;

	private final Payloads payloads;

	private final RunRepository runs;

	private final DedupRepository dedup;

	private final TransactionTemplate tx;

	private final RunLookup lookup;

	private final LatestRunSignal latest;

	private final LocalNode node;

	private final RunWaker waker;

	private final ResultWaiters waiters;

	private final Interceptors interceptors;

	public MessageClient(String namespace, WorkflowRegistry workflows, Payloads payloads, RunRepository runs,
			DedupRepository dedup, TransactionTemplate tx, RunLookup lookup, LatestRunSignal latest, LocalNode node,
			RunWaker waker, ResultWaiters waiters, Interceptors interceptors) {
		this.namespace = namespace;
		this.workflows = workflows;
		this.payloads = payloads;
		this.runs = runs;
		this.dedup = dedup;
		this.tx = tx;
		this.lookup = lookup;
		this.latest = latest;
		this.node = node;
		this.waker = waker;
		this.waiters = waiters;
		this.interceptors = interceptors;
	}

	/**
	 * The handler name a method reference names, checking it is a handler of that kind.
	 */
	static String handlerName(Serializable reference, HandlerKind kind) {
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

	/**
	 * Encodes a message payload with its handler's declared type (see
	 * {@code declaredType}): {@code Object} when this node does not know the workflow
	 * type, which it then cannot check names for either; a handler without parameter
	 * takes no payload.
	 * @throws UnknownHandlerException for a name the type does not take
	 */
	byte[] encode(String workflowType, HandlerKind kind, String name, Object payload, boolean required) {
		return encode(workflowType, kind, name, (type) -> payload, required, false);
	}

	/**
	 * Encodes a gateway's payload: looks the handler up once, lets the gateway convert
	 * its payload to the handler's parameter type, and encodes the value with that type.
	 * @throws UnknownWorkflowTypeException when the type is not registered on this node
	 */
	private byte[] encode(String workflowType, HandlerKind kind, String name, EncodedPayload payload,
			boolean required) {
		return encode(workflowType, kind, name, payload, required, true);
	}

	/**
	 * @param typeRequired whether this node must know the workflow type (a gateway
	 * converts to its declared types); else an unknown type takes any payload as
	 * {@code Object}
	 */
	private byte[] encode(String workflowType, HandlerKind kind, String name, EncodedPayload payload, boolean required,
			boolean typeRequired) {
		WorkflowDefinition definition = this.workflows.find(workflowType);
		if (definition == null && typeRequired) {
			throw new UnknownWorkflowTypeException("No workflow type '" + workflowType
					+ "' is registered; known types: " + this.workflows.applicationTypeNames());
		}
		Type type = (definition != null) ? declaredType(definition, kind, name, required) : Object.class;
		return this.payloads.encode(payload.convert(type), (type != null) ? type : Object.class, what(kind, name));
	}

	/**
	 * The parameter type of the handler a message goes to: {@code null} when it takes
	 * none, {@code Object} for a dynamic handler. A signal goes to its handler, else
	 * waits for {@code Workflows.receive} when its name is declared (typed by a
	 * {@code Signal} field, else {@code Object}), else goes to the dynamic handler; any
	 * other name is rejected here, before anything is written, so that a typo cannot wait
	 * unconsumed forever.
	 * @param required whether a missing handler is an error (queries and updates)
	 * @throws UnknownHandlerException for a name nothing takes
	 */
	private static Type declaredType(WorkflowDefinition definition, HandlerKind kind, String name, boolean required) {
		MessageHandlers handlers = definition.handlers();
		Handler handler = handlers.find(kind, name);
		if (kind == HandlerKind.SIGNAL && (handler == null || handler.dynamic())) {
			if (definition.receives().declares(name)) {
				Type type = definition.receives().payloadType(name);
				return (type != null) ? type : Object.class;
			}
			if (handler == null) {
				throw new UnknownHandlerException("Workflow type " + definition.typeName() + " takes no signal named '"
						+ name + "': no @SignalMethod, dynamic @SignalMethod,"
						+ " @Workflow(receives) or Signal field declares it (accepted: "
						+ definition.acceptedSignalNames() + ")");
			}
		}
		if (handler == null) {
			if (required) {
				throw new UnknownHandlerException(
						"Workflow type " + definition.typeName() + " has no " + kind.name().toLowerCase(Locale.ROOT)
								+ " handler '" + name + "' (known: " + handlers.names(kind) + ")");
			}
			return Object.class;
		}
		return handler.dynamic() ? Object.class : handler.payloadType();
	}

	private static String what(HandlerKind kind, String name) {
		return "the payload of " + kind.name().toLowerCase(Locale.ROOT) + " " + name;
	}

	void signal(RunRow row, String name, Object payload, String idempotencyKey) {
		send(row, name, signalPayload(row.workflowType(), name, payload), idempotencyKey);
	}

	private byte[] signalPayload(String workflowType, String name, Object payload) {
		return encode(workflowType, HandlerKind.SIGNAL, name, payload, false);
	}

	void signal(RunRow row, String name, EncodedPayload payload, String idempotencyKey) {
		send(row, name, encode(row.workflowType(), HandlerKind.SIGNAL, name, payload, false), idempotencyKey);
	}

	/**
	 * A signal without idempotency key to the latest run of a workflow id whose type the
	 * caller knows (a handle from a start): the payload is encoded with that type first,
	 * then one statement finds the latest run and sends to it if it is open and of that
	 * type. Otherwise (closed, another type's run under a reused id, no run) the run is
	 * read and the send goes as it does for any handle, with its errors; so does a name
	 * the type does not take, which another type's latest run may.
	 * @param latestRun reads the latest run ({@code WorkflowNotFoundException} when there
	 * is none)
	 */
	void signalLatest(String workflowType, String workflowId, String name, Object payload, Supplier<RunRow> latestRun) {
		byte[] encoded;
		try {
			encoded = signalPayload(workflowType, name, payload);
		}
		catch (UnknownHandlerException ex) {
			signal(latestRun.get(), name, payload, null);
			return;
		}
		this.interceptors.client(ClientOperation.SIGNAL, workflowType, workflowId, name, (headers) -> {
			Optional<LatestRunSignal.Sent> sent = this.latest.send(this.namespace, workflowId, workflowType, name,
					encoded);
			if (sent.isPresent()) {
				this.waker.wake(sent.get().runId(), sent.get().owner());
				return null;
			}
			RunRow row = latestRun.get();
			sendNow(row, name, row.workflowType().equals(workflowType) ? encoded
					: signalPayload(row.workflowType(), name, payload), null);
			return null;
		});
	}

	private void send(RunRow row, String name, byte[] encoded, String idempotencyKey) {
		this.interceptors.client(ClientOperation.SIGNAL, row.workflowType(), row.workflowId(), name, (headers) -> {
			sendNow(row, name, encoded, idempotencyKey);
			return null;
		});
	}

	private void sendNow(RunRow row, String name, byte[] encoded, String idempotencyKey) {
		// without a key the send is one statement: no transaction around it (one round
		// trip)
		InboxDelivery sent = (idempotencyKey == null) ? sendToInbox(row, name, encoded) : this.tx.execute((status) -> {
			if (!this.dedup.recordSignalKey(row.namespace(), row.workflowId(), idempotencyKey, row.runId())) {
				// a retried send: the first one was stored, nothing changes
				return InboxDelivery.ALREADY_SENT;
			}
			return sendToInbox(row, name, encoded);
		});
		wake(row, sent);
	}

	private InboxDelivery sendToInbox(RunRow row, String name, byte[] encoded) {
		return delivered(row, this.runs.sendToInbox(row.runId(), InboxKind.SIGNAL, name, encoded));
	}

	/** The delivery to an open run; a closed run fails the send. */
	private InboxDelivery delivered(RunRow row, InboxDelivery sent) {
		if (sent == InboxDelivery.RUN_CLOSED) {
			throw this.lookup.closed(row);
		}
		return sent;
	}

	private void wake(RunRow row, InboxDelivery sent) {
		if (sent instanceof InboxDelivery.Delivered delivered) {
			this.waker.wake(row.runId(), delivered.owner());
		}
	}

	/**
	 * How long a query waits for a just-started run's first workflow task (whose code
	 * builds the state).
	 */
	private static final long FIRST_TASK_WAIT_MILLIS = 5_000;

	Object query(RunRow row, String name, Object argument, Type resultType) {
		return query(row, name, encode(row.workflowType(), HandlerKind.QUERY, name, argument, true), resultType);
	}

	Object query(RunRow row, String name, EncodedPayload argument, Type resultType) {
		return query(row, name, encode(row.workflowType(), HandlerKind.QUERY, name, argument, true), resultType);
	}

	private Object query(RunRow row, String name, byte[] encoded, Type resultType) {
		return this.interceptors.client(ClientOperation.QUERY, row.workflowType(), row.workflowId(), name,
				(headers) -> queryNow(row, name, encoded, resultType));
	}

	private Object queryNow(RunRow row, String name, byte[] encoded, Type resultType) {
		byte[] result = this.node.query(firstTaskDone(row), name, encoded);
		return this.payloads.decode(result, resultType, "the result of query " + name);
	}

	/**
	 * A run that has not run its first workflow task has no state to query yet: right
	 * after a start that is a matter of milliseconds, so wait for it (bounded) instead of
	 * failing.
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
			current = this.runs.find(row.runId()).orElse(current);
		}
		return current;
	}

	<T> UpdateHandleImpl<T> startUpdate(RunRow row, String name, Object argument, Type resultType,
			UpdateOptions options) {
		return startUpdate(row, name, encode(row.workflowType(), HandlerKind.UPDATE, name, argument, true), resultType,
				options);
	}

	<T> UpdateHandleImpl<T> startUpdate(RunRow row, String name, EncodedPayload argument, Type resultType,
			UpdateOptions options) {
		return startUpdate(row, name, encode(row.workflowType(), HandlerKind.UPDATE, name, argument, true), resultType,
				options);
	}

	private <T> UpdateHandleImpl<T> startUpdate(RunRow row, String name, byte[] encoded, Type resultType,
			UpdateOptions options) {
		return this.interceptors.client(ClientOperation.UPDATE, row.workflowType(), row.workflowId(), name,
				(headers) -> startUpdateNow(row, name, encoded, resultType, options));
	}

	private <T> UpdateHandleImpl<T> startUpdateNow(RunRow row, String name, byte[] encoded, Type resultType,
			UpdateOptions options) {
		String updateId = (options.updateId() != null) ? options.updateId() : UUID.randomUUID().toString();
		InboxDelivery sent = this.tx.execute((status) -> {
			if (!this.dedup.admitUpdate(row.namespace(), row.workflowId(), updateId, row.runId())) {
				return InboxDelivery.ALREADY_SENT; // a retried update id: its stored
													// outcome
													// answers
			}
			return delivered(row, this.runs.sendToInbox(row.runId(), InboxKind.UPDATE, name, encoded, updateId));
		});
		wake(row, sent);
		UpdateHandleImpl<T> handle = new UpdateHandleImpl<>(this.dedup, this.runs, this.node, this.namespace,
				this.payloads, this.waiters, row.workflowId(), updateId, resultType);
		handle.waitFor(options.waitForStage(), null);
		return handle;
	}

	<T> UpdateHandleImpl<T> updateHandle(String workflowId, String updateId, Type resultType) {
		return new UpdateHandleImpl<>(this.dedup, this.runs, this.node, this.namespace, this.payloads, this.waiters,
				workflowId, updateId, resultType);
	}

}
