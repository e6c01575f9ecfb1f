package dev.durable.workflow;

import org.jspecify.annotations.Nullable;

/**
 * Calls with arguments for workflow code, such as
 * {@code saga.addCompensation(payments::refund, id)}: a method reference plus its
 * arguments, invoked later. Unlike {@link dev.durable.workflow.WorkflowMethodReference},
 * which name a workflow method for the client and take the workflow as receiver, these
 * are plain calls bound to their target. A method that returns a value fits too; the
 * value is dropped. Arguments may be {@code null}.
 */
public final class Functions {

	private Functions() {
	}

	/**
	 * A call with one argument.
	 *
	 * @param <A> the argument type
	 */
	@FunctionalInterface
	public interface Proc1<A extends @Nullable Object> {

		/**
		 * @param arg the argument
		 */
		void apply(A arg);

	}

	/**
	 * A call with two arguments.
	 *
	 * @param <A> the first argument type
	 * @param <B> the second argument type
	 */
	@FunctionalInterface
	public interface Proc2<A extends @Nullable Object, B extends @Nullable Object> {

		/**
		 * @param arg1 the first argument
		 * @param arg2 the second argument
		 */
		void apply(A arg1, B arg2);

	}

	/**
	 * A call with three arguments.
	 *
	 * @param <A> the first argument type
	 * @param <B> the second argument type
	 * @param <C> the third argument type
	 */
	@FunctionalInterface
	public interface Proc3<A extends @Nullable Object, B extends @Nullable Object, C extends @Nullable Object> {

		/**
		 * @param arg1 the first argument
		 * @param arg2 the second argument
		 * @param arg3 the third argument
		 */
		void apply(A arg1, B arg2, C arg3);

	}

}
