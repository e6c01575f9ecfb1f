package dev.durable.workflow.internal.runtime;

import java.lang.reflect.InvocationTargetException;
import java.util.function.Function;

import dev.durable.workflow.failure.CanceledFailure;
import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.failure.WorkflowException;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.support.Payloads;

/**
 * The run's instance and main method: created with {@code @WorkflowInit} before any
 * message of the first activation, run on its own workflow thread, and closed by its
 * return value or by what it threw (a workflow failure — an engine failure such as
 * {@code ApplicationFailure} or {@code ActivityFailure}, or a type listed in
 * {@code failWorkflowExceptionTypes} —, a cancellation, or a bug that fails the task
 * instead).
 * <p>
 * A run whose cancellation was requested closes CANCELED when it ends because of it: its
 * main method (or a signal handler) lets a {@code CanceledFailure} out, or a failure
 * caused by one (an {@code ActivityFailure} or {@code ChildWorkflowFailure} of a canceled
 * activity or child), or its main method returns or continues as new after the request
 * (its result is dropped, as in Temporal's Java SDK). Any other failure it ends with (a
 * cleanup that failed) fails it, so that the failure stays visible.
 */
final class MainMethod {

	private final WorkflowRunner runner;

	private final WorkflowDefinition definition;

	private final Function<Class<?>, Object> factory;

	private final Payloads payloads;

	private final CancellationScopeImpl rootScope;

	MainMethod(WorkflowRunner runner, WorkflowDefinition definition, Function<Class<?>, Object> factory,
			Payloads payloads, CancellationScopeImpl rootScope) {
		this.runner = runner;
		this.definition = definition;
		this.factory = factory;
		this.payloads = payloads;
		this.rootScope = rootScope;
	}

	/**
	 * Creates the instance and runs {@code @WorkflowInit}, so validators and handlers see
	 * an initialized instance; the main method starts after the handlers of the first
	 * activation.
	 * @return the instance, or {@code null} when init failed the run
	 */
	Object start(byte[] inputPayload) {
		Object created = this.factory.apply(this.definition.workflowClass());
		Object[] args = (this.definition.inputType() != null)
				? new Object[] { this.payloads.decode(inputPayload, this.definition.inputType(), "the workflow input") }
				: new Object[0];
		if (this.definition.initMethod() != null) {
			try {
				this.runner.inReadOnlyMode(() -> this.definition.initMethod().invoke(created, args));
			}
			catch (InvocationTargetException ex) {
				closeWithFailure(ex.getTargetException());
				return null;
			}
		}
		this.runner.spawn("main", this.rootScope, () -> run(created, args));
		return created;
	}

	private void run(Object instance, Object[] args) {
		Object result;
		try {
			result = this.definition.runMethod().invoke(instance, args);
		}
		catch (InvocationTargetException ex) {
			closeWithFailure(ex.getTargetException());
			return;
		}
		catch (IllegalAccessException ex) {
			throw new IllegalStateException(ex);
		}
		if (this.rootScope.isCancelRequested()) {
			// it returned after the cancel request: the run ends canceled, its result
			// dropped
			closeCanceled();
			return;
		}
		byte[] encoded = this.payloads.encode(result, this.definition.resultType(), "the workflow result");
		this.runner.emit(Event.completed(encoded));
	}

	/** Closes the run CANCELED, with the cancel request's reason. */
	void closeCanceled() {
		this.runner.emitCanceledClose(Event.canceled(FailureInfo.canceled(this.rootScope.reason())));
	}

	void closeWithFailure(Throwable thrown) {
		if (thrown instanceof Coroutine.DestroyWorkflowThreadError error) {
			throw error;
		}
		if (thrown instanceof ContinueAsNewError) {
			return; // the run already closed with CONTINUED_AS_NEW
		}
		if (this.rootScope.isCancelRequested() && isCausedByCancellation(thrown)) {
			closeCanceled();
		}
		else if (failsRun(this.definition, thrown)) {
			this.runner.emit(Event.failed(Failures.toInfo(thrown, this.payloads.converter())));
		}
		else {
			// not a workflow failure on purpose: fail the task so that a code fix can let
			// the run continue
			this.runner.coroutineFailed(null, thrown);
		}
	}

	/**
	 * Whether what workflow code threw fails the run (from the main method or a signal
	 * handler) or the update (from an update handler) rather than the workflow task: an
	 * engine failure ({@code ApplicationFailure}, {@code ActivityFailure},
	 * {@code ChildWorkflowFailure}, {@code TimeoutFailure}, {@code CanceledFailure}, ...)
	 * or a type the workflow lists. Never non-determinism, a payload that cannot be
	 * encoded or the engine's own task failures: a deploy of fixed code mends those.
	 */
	static boolean failsRun(WorkflowDefinition definition, Throwable thrown) {
		return (thrown instanceof WorkflowException && !(thrown instanceof NonDeterministicWorkflowException)
				&& !(thrown instanceof PayloadException) && !(thrown instanceof WorkflowTaskFailedException))
				|| isListedFailure(definition, thrown);
	}

	/**
	 * Whether the failure is a {@code CanceledFailure} or was caused by one (the
	 * {@code ActivityFailure} of a canceled activity, the {@code ChildWorkflowFailure} of
	 * a canceled child).
	 */
	static boolean isCausedByCancellation(Throwable thrown) {
		Throwable t = thrown;
		for (int depth = 0; t != null && depth < 64; depth++) { // bounded: a cause chain
																// may loop
			if (t instanceof CanceledFailure) {
				return true;
			}
			t = t.getCause();
		}
		return false;
	}

	/**
	 * Whether the workflow type lists the throwable among those that fail the run. Never
	 * non-determinism or the engine's own task failures, even under a listed supertype: a
	 * deploy of fixed code mends those, and failing the run would lose it.
	 */
	static boolean isListedFailure(WorkflowDefinition definition, Throwable thrown) {
		return !(thrown instanceof NonDeterministicWorkflowException)
				&& !(thrown instanceof WorkflowTaskFailedException)
				&& !(thrown instanceof Coroutine.DestroyWorkflowThreadError) && !(thrown instanceof ContinueAsNewError)
				&& definition.failsWorkflow(thrown);
	}

}
