package dev.durable.workflow;

import java.io.Serializable;

import dev.durable.workflow.internal.client.WorkflowDefinitions;

/**
 * Method references to workflow methods, for typed client calls such as
 * {@code client.start(HomeLoanWorkflow::run, input, options)} and
 * {@code Workflows.startChild(PaymentWorkflow::run, input, options)}. Serializable so the
 * engine can read which method they name. The engine never calls them, so the methods
 * they name may declare checked exceptions ({@code throws Exception} here only lets such
 * references compile).
 */
public final class WorkflowMethodReference {

	private WorkflowMethodReference() {
	}

	/**
	 * The type name of the workflow whose {@code @WorkflowRun} method is referenced, such
	 * as {@code OrderWorkflow::run}: the {@code @Workflow} value, or the class's simple
	 * name.
	 * @throws IllegalArgumentException when the method is not a {@code @WorkflowRun}
	 * method
	 */
	public static String typeName(Func1<?, ?, ?> runMethod) {
		return WorkflowDefinitions.definition(runMethod).typeName();
	}

	/**
	 * {@link #typeName(Func1)} for a run method without parameter.
	 */
	public static String typeName(Func0<?, ?> runMethod) {
		return WorkflowDefinitions.definition(runMethod).typeName();
	}

	/** A workflow method without parameter returning a value. */
	@FunctionalInterface
	public interface Func0<W, R> extends Serializable {

		R apply(W workflow) throws Exception;

	}

	/** A workflow method with one parameter returning a value. */
	@FunctionalInterface
	public interface Func1<W, A, R> extends Serializable {

		R apply(W workflow, A arg) throws Exception;

	}

	/** A workflow method without parameter and without result. */
	@FunctionalInterface
	public interface Proc0<W> extends Serializable {

		void apply(W workflow) throws Exception;

	}

	/** A workflow method with one parameter and without result. */
	@FunctionalInterface
	public interface Proc1<W, A> extends Serializable {

		void apply(W workflow, A arg) throws Exception;

	}

}
