package dev.durable.workflow;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.failure.WorkflowException;

/**
 * Compensations for the steps a workflow has done, undone on failure: register one after
 * each step succeeds, and call {@link #compensate()} when the workflow gives up.
 *
 * <pre>{@code
 * Saga saga = new Saga(Saga.Options.DEFAULT);
 * try {
 *     String hold = payments.hold(order);
 *     saga.addCompensation(payments::release, hold);
 *     shipping.book(order);
 *     saga.addCompensation(shipping::cancel, order.id());
 * }
 * catch (ActivityFailure ex) {
 *     saga.compensate();
 *     throw ex;
 * }
 * }</pre>
 *
 * Only for workflow code: compensations run as ordinary workflow code, so the activities
 * they call are recorded and replay the same way. A saga holds no durable state of its
 * own; replay registers the same compensations again because the workflow code does. To
 * compensate a cancelled run, call {@link #compensate()} in
 * {@link Workflows#newDetachedCancellationScope}, where its activities are not cancelled
 * with it.
 */
public final class Saga {

	private final Options options;

	private final List<Runnable> compensations = new ArrayList<>();

	/** A saga with {@link Options#DEFAULT}: sequential, stopping at the first failure. */
	public Saga() {
		this(Options.DEFAULT);
	}

	/**
	 * @param options whether compensations run in parallel and whether a failure stops
	 * the rest
	 */
	public Saga(Options options) {
		this.options = options;
	}

	/**
	 * @param compensation a call undoing a step done
	 */
	public void addCompensation(Runnable compensation) {
		this.compensations.add(compensation);
	}

	/**
	 * @param compensation a method reference undoing a step done
	 * @param arg its argument
	 */
	public <A extends @Nullable Object> void addCompensation(Functions.Proc1<A> compensation, A arg) {
		addCompensation(() -> compensation.apply(arg));
	}

	/**
	 * @param compensation a method reference undoing a step done
	 * @param arg1 its first argument
	 * @param arg2 its second argument
	 */
	public <A extends @Nullable Object, B extends @Nullable Object> void addCompensation(
			Functions.Proc2<A, B> compensation, A arg1, B arg2) {
		addCompensation(() -> compensation.apply(arg1, arg2));
	}

	/**
	 * @param compensation a method reference undoing a step done
	 * @param arg1 its first argument
	 * @param arg2 its second argument
	 * @param arg3 its third argument
	 */
	public <A extends @Nullable Object, B extends @Nullable Object, C extends @Nullable Object> void addCompensation(
			Functions.Proc3<A, B, C> compensation, A arg1, B arg2, C arg3) {
		addCompensation(() -> compensation.apply(arg1, arg2, arg3));
	}

	/**
	 * Runs the compensations added so far: last added first, one after the other, or all
	 * at once with {@link Options#parallelCompensation}. Each call runs them again; the
	 * saga keeps them.
	 * @throws CompensationException when a compensation failed: its cause is the first
	 * failure, later ones are suppressed. Without {@link Options#continueWithError} the
	 * first failure stops the compensations not yet started (in parallel, all have
	 * started: it is thrown without waiting for the others). A
	 * {@link NonDeterministicWorkflowException} is no compensation failure: it propagates
	 * at once.
	 */
	public void compensate() {
		List<Runnable> reversed = new ArrayList<>(this.compensations);
		Collections.reverse(reversed);
		List<RuntimeException> failures = this.options.parallelCompensation() ? runParallel(reversed)
				: runSequential(reversed);
		if (!failures.isEmpty()) {
			CompensationException failure = new CompensationException(failures.get(0));
			failures.subList(1, failures.size()).forEach(failure::addSuppressed);
			throw failure;
		}
	}

	private List<RuntimeException> runSequential(List<Runnable> ordered) {
		List<RuntimeException> failures = new ArrayList<>();
		for (Runnable compensation : ordered) {
			try {
				compensation.run();
			}
			catch (NonDeterministicWorkflowException ex) {
				// a bug in the workflow code, not a failed compensation: the workflow
				// task must fail
				throw ex;
			}
			catch (RuntimeException ex) {
				failures.add(ex);
				if (!this.options.continueWithError()) {
					break;
				}
			}
		}
		return failures;
	}

	private List<RuntimeException> runParallel(List<Runnable> ordered) {
		List<Promise<Void>> running = new ArrayList<>();
		for (Runnable compensation : ordered) {
			running.add(Workflows.async(compensation));
		}
		if (this.options.continueWithError()) {
			// every compensation gets its chance, so the saga reports only once all have
			// ended
			for (Promise<Void> promise : running) {
				try {
					promise.get();
				}
				catch (RuntimeException ex) {
					// collected below, in compensation order
				}
			}
		}
		else {
			try {
				Promise.allOf(running).get();
			}
			catch (RuntimeException ex) {
				// allOf fails on the first failure; the failures seen by then are the
				// ones reported
			}
		}
		List<RuntimeException> failures = new ArrayList<>();
		for (Promise<Void> promise : running) {
			RuntimeException failure = promise.isCompleted() ? promise.getFailure() : null;
			if (failure instanceof NonDeterministicWorkflowException nonDeterministic) {
				throw nonDeterministic;
			}
			if (failure != null) {
				failures.add(failure);
			}
		}
		return failures;
	}

	/**
	 * How a saga compensates.
	 *
	 * @param parallelCompensation run all compensations at once on their own workflow
	 * threads ({@link Workflows#async}) instead of one after the other, last added first
	 * @param continueWithError run the other compensations when one fails, instead of
	 * stopping at the first failure
	 */
	public record Options(boolean parallelCompensation, boolean continueWithError) {

		/** Sequential, stopping at the first failure. */
		public static final Options DEFAULT = new Options(false, false);

		/**
		 * @return these options with {@code parallelCompensation} set
		 */
		public Options withParallelCompensation(boolean parallelCompensation) {
			return new Options(parallelCompensation, this.continueWithError);
		}

		/**
		 * @return these options with {@code continueWithError} set
		 */
		public Options withContinueWithError(boolean continueWithError) {
			return new Options(this.parallelCompensation, continueWithError);
		}

	}

	/**
	 * A compensation failed. The cause is the first failure (in compensation order); the
	 * others are {@linkplain #getSuppressed() suppressed}.
	 */
	public static class CompensationException extends WorkflowException {

		/**
		 * @param cause the first compensation failure
		 */
		public CompensationException(Throwable cause) {
			super("Compensation failed: " + cause.getMessage(), cause);
		}

	}

}
