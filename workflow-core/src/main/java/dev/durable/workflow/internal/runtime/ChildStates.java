package dev.durable.workflow.internal.runtime;

import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.durable.workflow.ChildHandle;
import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.Promise;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.ChildClosed;
import dev.durable.workflow.internal.history.Event.ChildStartFailed;
import dev.durable.workflow.internal.history.Event.ChildStarted;
import dev.durable.workflow.internal.history.Event.ExternalDelivered;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.support.Payloads;

/**
 * Child workflows of a run. Transitions: start requested (START_CHILD command) to started
 * (CHILD_STARTED input) or start failed (CHILD_START_FAILED: the id is in use), then
 * closed (CHILD_CLOSED input with the result or the failure).
 */
final class ChildStates {

	private record Pending(long seq, String workflowType, String workflowId, Type resultType,
			PromiseImpl<String> started, PromiseImpl<Object> result) {
	}

	private final CommandRecorder commands;

	private final Payloads payloads;

	private final Map<Long, Pending> pending = new LinkedHashMap<>();

	/**
	 * Whether the run ever started a child (its close then tells the children still
	 * open).
	 */
	private boolean startedAny;

	ChildStates(CommandRecorder commands, Payloads payloads) {
		this.commands = commands;
		this.payloads = payloads;
	}

	<R> ChildHandle<R> start(long seq, WorkflowDefinition child, Object input, ChildOptions options,
			String parentWorkflowId, java.util.Random random) {
		if (child.inputType() == null && input != null) {
			throw new IllegalArgumentException("Workflow type " + child.typeName() + " takes no input");
		}
		Type inputType = (child.inputType() != null) ? child.inputType() : Object.class;
		byte[] encoded = this.payloads.encode(input, inputType, "the input of child workflow " + child.typeName());
		String workflowId = (options.workflowId() != null) ? options.workflowId()
				: parentWorkflowId + "-child-" + new java.util.UUID(random.nextLong(), random.nextLong());
		return start(seq, child.typeName(), workflowId, encoded, options.parentClosePolicy().name(),
				options.hasRunOptions() ? options : null, child.resultType());
	}

	private <R> ChildHandle<R> start(long seq, String workflowType, String workflowId, byte[] input, String policy,
			ChildOptions options, Type resultType) {
		this.commands.emit(Event.startChild(seq, workflowType, workflowId, input, policy, options));
		this.startedAny = true;
		Pending child = new Pending(seq, workflowType, workflowId, resultType, new PromiseImpl<>(),
				new PromiseImpl<>());
		this.pending.put(seq, child);
		return new ChildHandle<>() {
			@Override
			public String workflowId() {
				return workflowId;
			}

			@Override
			public Promise<String> started() {
				return child.started();
			}

			@Override
			@SuppressWarnings("unchecked")
			public Promise<R> result() {
				return (Promise<R>) child.result();
			}
		};
	}

	/**
	 * Applies a CHILD_STARTED input. @return false when the child is no longer pending
	 */
	boolean started(ChildStarted input) {
		Pending child = this.pending.get(input.seq());
		if (child == null || child.started().isCompleted()) {
			return false;
		}
		child.started().complete(input.childRunId());
		return true;
	}

	/**
	 * Applies a CHILD_START_FAILED input. @return false when the child is no longer
	 * pending
	 */
	boolean startFailed(ChildStartFailed input) {
		return close(input.seq(), null, input.failure());
	}

	/** Applies a CHILD_CLOSED input. @return false when the child is no longer pending */
	boolean closed(ChildClosed input) {
		return close(input.seq(), input.result(), input.failure());
	}

	private boolean close(long seq, byte[] result, FailureInfo failed) {
		Pending child = this.pending.remove(seq);
		if (child == null) {
			return false;
		}
		if (failed != null) {
			RuntimeException failure = Failures.toException(
					FailureInfo.child(child.workflowType(), child.workflowId(), failed), this.payloads.converter());
			child.started().fail(failure);
			child.result().fail(failure);
			return true;
		}
		child.started().complete(null);
		try {
			child.result()
				.complete(this.payloads.decode(result, child.resultType(),
						"the result of child workflow " + child.workflowId()));
		}
		catch (RuntimeException ex) {
			child.result().fail(ex);
		}
		return true;
	}

	private final Map<Long, PromiseImpl<Void>> externals = new LinkedHashMap<>();

	Promise<Void> external(long seq, String workflowId, String runId, String signalName, Object payload) {
		byte[] encoded = (signalName != null)
				? this.payloads.encode(payload, Object.class, "the payload of signal " + signalName) : null;
		this.commands.emit(Event.external(seq, workflowId, runId, signalName, encoded));
		PromiseImpl<Void> promise = new PromiseImpl<>();
		this.externals.put(seq, promise);
		return promise;
	}

	boolean delivered(ExternalDelivered input) {
		PromiseImpl<Void> promise = this.externals.remove(input.seq());
		if (promise == null) {
			return false;
		}
		if (input.failure() != null) {
			promise.fail(Failures.toException(input.failure(), this.payloads.converter()));
		}
		else {
			promise.complete(null);
		}
		return true;
	}

	/** The workflow ids of the children whose start or outcome the run waits for. */
	List<String> pendingWorkflowIds() {
		return this.pending.values().stream().map(Pending::workflowId).toList();
	}

	boolean hasPending() {
		return !this.pending.isEmpty();
	}

	boolean startedAny() {
		return this.startedAny;
	}

}
