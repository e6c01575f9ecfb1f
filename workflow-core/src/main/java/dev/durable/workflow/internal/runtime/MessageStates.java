package dev.durable.workflow.internal.runtime;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.durable.workflow.Promise;
import dev.durable.workflow.engine.HandlerKind;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.SignalReceived;
import dev.durable.workflow.internal.history.Event.UpdateAccepted;
import dev.durable.workflow.internal.history.Event.UpdateCompleted;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.registry.MessageHandlers;
import dev.durable.workflow.internal.registry.MessageHandlers.Handler;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.runtime.TaskResult.UpdateOutcome;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.payload.EncodedValue;

/**
 * Signals, updates and queries of a run. A signal goes to its handler, or is buffered
 * FIFO per name for {@code Workflows.receive}. An update is validated (rejection leaves
 * no event), then accepted (UPDATE_ACCEPTED input) and run by its handler, whose return
 * is the UPDATE_COMPLETED command. A query runs its handler against the current state and
 * records nothing.
 */
final class MessageStates {

	/** The names receives wait for now (a name once per waiting receive). */
	private final List<String> receiving = new java.util.ArrayList<>();

	private final WorkflowRunner runner;

	private final MessageHandlers handlers;

	private final WorkflowDefinition definition;

	private final Payloads payloads;

	private final Map<String, Deque<byte[]>> buffered = new HashMap<>();

	private List<UpdateOutcome> outcomes = new ArrayList<>();

	MessageStates(WorkflowRunner runner, WorkflowDefinition definition, Payloads payloads) {
		this.runner = runner;
		this.handlers = definition.handlers();
		this.definition = definition;
		this.payloads = payloads;
	}

	void beginTask() {
		this.outcomes = new ArrayList<>();
	}

	List<UpdateOutcome> outcomes() {
		return List.copyOf(this.outcomes);
	}

	// ---- signals
	// -------------------------------------------------------------------------------

	void signal(SignalReceived event) {
		Handler handler = this.handlers.find(HandlerKind.SIGNAL, event.name());
		if (this.definition.buffersSignal(event.name())) {
			this.buffered.computeIfAbsent(event.name(), (n) -> new ArrayDeque<>()).add(payloadOrEmpty(event.payload()));
			return;
		}
		this.runner.spawnHandler("signal-" + event.name(), () -> {
			try {
				invoke(handler, event.name(), event.payload(), "signal");
			}
			catch (InvocationTargetException ex) {
				Throwable target = ex.getTargetException();
				if (target instanceof ContinueAsNewError) {
					return;
				}
				if (MainMethod.failsRun(this.definition, target)) {
					// what fails the run from the main method (an ApplicationFailure, an
					// ActivityFailure, a
					// type listed to fail the workflow, a cancellation) fails it alike
					// from a signal handler
					this.runner.closeWithFailure(target);
					return;
				}
				this.runner.coroutineFailed(null, target);
			}
		});
	}

	private static final byte[] NO_PAYLOAD = new byte[0];

	private static byte[] payloadOrEmpty(byte[] payload) {
		return (payload != null) ? payload : NO_PAYLOAD;
	}

	private static byte[] orNull(byte[] payload) {
		return (payload == null || payload.length == 0) ? null : payload;
	}

	/** Whether a buffered signal of this name waits. */
	boolean hasBuffered(String name) {
		Deque<byte[]> queue = this.buffered.get(name);
		return queue != null && !queue.isEmpty();
	}

	Object take(String name, Type type) {
		byte[] payload = this.buffered.get(name).poll();
		return this.payloads.decode(orNull(payload), type, "signal " + name);
	}

	<T> Optional<T> receive(String name, Type type, Duration timeout) {
		checkDeclared(name);
		this.receiving.add(name);
		try {
			if (timeout == null) {
				this.runner.context().await(() -> hasBuffered(name));
			}
			else if (!this.runner.context().await(timeout, () -> hasBuffered(name))) {
				return Optional.empty();
			}
		}
		finally {
			this.receiving.remove(name);
		}
		@SuppressWarnings("unchecked")
		T value = (T) take(name, type);
		return Optional.ofNullable(value);
	}

	@SuppressWarnings("unchecked")
	<T> Promise<T> signalPromise(String name, Type type) {
		checkDeclared(name);
		return new LazyPromise<>(() -> hasBuffered(name), () -> (T) take(name, type), () -> null);
	}

	/**
	 * Refuses to receive a name the type does not declare, so that a forgotten
	 * declaration (which makes clients' signals of that name rejected) fails the first
	 * test run instead of leaving the run waiting. A name a {@code @SignalMethod} takes
	 * is allowed as before: its signals go to the handler, so such a receive never
	 * returns.
	 * @throws IllegalStateException which fails the workflow task
	 */
	private void checkDeclared(String name) {
		if (name == null || this.definition.receives().declares(name)
				|| this.handlers.names(HandlerKind.SIGNAL).contains(name)) {
			return;
		}
		throw new IllegalStateException("Workflow type " + this.runner.identity().workflowType() + " receives signal '"
				+ name + "' but does not declare it, so clients cannot send it; declare it with @Workflow(receives = \""
				+ name + "\") on " + this.definition.workflowClass().getName()
				+ " or a static final Signal field (Signal.of(\"" + name + "\", PayloadType.class)); declared: "
				+ this.definition.receives().names());
	}

	/** The names the code waits to receive now, one per waiting receive. */
	List<String> receiving() {
		return List.copyOf(this.receiving);
	}

	/** Signals not yet received, oldest first per name (they move to a continued run). */
	Map<String, List<byte[]>> unreceived() {
		Map<String, List<byte[]>> result = new HashMap<>();
		this.buffered.forEach((name, queue) -> {
			if (!queue.isEmpty()) {
				result.put(name, List.copyOf(queue));
			}
		});
		return result;
	}

	// ---- updates
	// -------------------------------------------------------------------------------

	/**
	 * Validates an update arriving in a new task.
	 * @return the UPDATE_ACCEPTED input to apply, or {@code null} when rejected
	 */
	Event offerUpdate(String updateId, String name, byte[] payload) {
		Handler handler = this.handlers.find(HandlerKind.UPDATE, name);
		if (handler == null) {
			reject(updateId, "UnknownUpdate", "Workflow type " + this.runner.identity().workflowType()
					+ " has no update handler '" + name + "' (known: " + this.handlers.names(HandlerKind.UPDATE) + ")");
			return null;
		}
		Method validator = handler.dynamic() ? null : this.handlers.validator(name);
		try {
			args(handler, name, payload, "update");
		}
		catch (RuntimeException ex) {
			reject(updateId, "InvalidPayload", ex.getMessage());
			return null;
		}
		if (validator != null) {
			try {
				this.runner.inReadOnlyMode(() -> {
					Object[] args = args(new Handler(name, validator, false), name, payload, "update");
					validator.invoke(this.runner.instance(), args);
					return null;
				});
			}
			catch (InvocationTargetException ex) {
				Throwable cause = ex.getTargetException();
				reject(updateId, cause.getClass().getName(), cause.getMessage());
				return null;
			}
			catch (RuntimeException ex) {
				reject(updateId, ex.getClass().getName(), ex.getMessage());
				return null;
			}
		}
		return Event.updateAccepted(updateId, name, payload);
	}

	void reject(String updateId, String type, String message) {
		this.outcomes.add(new UpdateOutcome(updateId, "REJECTED", null,
				FailureInfo.application(type, message, true, null, null, null)));
	}

	/** Applies UPDATE_ACCEPTED: the handler runs ahead of the main method. */
	void accepted(UpdateAccepted event) {
		Handler handler = this.handlers.find(HandlerKind.UPDATE, event.name());
		if (!this.runner.isReplaying()) {
			this.outcomes.add(new UpdateOutcome(event.updateId(), "ACCEPTED", null, null));
		}
		this.runner.spawnHandler("update-" + event.name(), () -> {
			Object result;
			try {
				result = invoke(handler, event.name(), event.payload(), "update");
			}
			catch (InvocationTargetException ex) {
				Throwable target = ex.getTargetException();
				if (target instanceof ContinueAsNewError) {
					return;
				}
				if (MainMethod.failsRun(this.definition, target)) {
					// what would fail the run from the main method fails this update
					// only, the run going on
					this.runner.recordUpdateCompleted(event.updateId(), null,
							Failures.toInfo(target, this.payloads.converter()));
					return;
				}
				this.runner.coroutineFailed(null, target);
				return;
			}
			byte[] encoded = this.payloads.encode(result, handler.method().getGenericReturnType(),
					"the result of update " + event.name());
			this.runner.recordUpdateCompleted(event.updateId(), encoded, null);
		});
	}

	void completed(UpdateCompleted command) {
		if (!this.runner.isReplaying()) {
			this.outcomes.add(new UpdateOutcome(command.updateId(), "COMPLETED", command.result(), command.failure()));
		}
	}

	// ---- queries
	// -------------------------------------------------------------------------------

	byte[] query(String name, byte[] argument) throws InvocationTargetException {
		Handler handler = this.handlers.find(HandlerKind.QUERY, name);
		if (handler == null) {
			throw new IllegalArgumentException("Workflow type " + this.runner.identity().workflowType()
					+ " has no query handler '" + name + "' (known: " + this.handlers.names(HandlerKind.QUERY) + ")");
		}
		Object result = invoke(handler, name, argument, "query");
		return this.payloads.encode(result, handler.method().getGenericReturnType(), "the result of query " + name);
	}

	// ---- shared
	// --------------------------------------------------------------------------------

	private Object invoke(Handler handler, String name, byte[] payload, String kind) throws InvocationTargetException {
		Object[] args = args(handler, name, payload, kind);
		try {
			return handler.method().invoke(this.runner.instance(), args);
		}
		catch (IllegalAccessException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private Object[] args(Handler handler, String name, byte[] payload, String kind) {
		if (handler.dynamic()) {
			return new Object[] { name, EncodedValue.of(orNull(payload), this.payloads.converter()) };
		}
		if (handler.method().getParameterCount() == 0) {
			return new Object[0];
		}
		return new Object[] {
				this.payloads.decode(orNull(payload), handler.payloadType(), "the " + kind + " " + name) };
	}

}
