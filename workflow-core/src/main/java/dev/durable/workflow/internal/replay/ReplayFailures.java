package dev.durable.workflow.internal.replay;

import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.engine.ReplayCheckReport.FailureKind;
import dev.durable.workflow.engine.ReplayCheckReport.RunFailure;
import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.runtime.RunIdentity;
import dev.durable.workflow.internal.support.Errors;

/**
 * What a failed replay of a whole history says: the workflow task it went wrong at and
 * the commands recorded there, for a person deciding whether code may be deployed.
 */
public final class ReplayFailures {

	private ReplayFailures() {
	}

	/**
	 * The failure of replaying {@code record}: a mismatch found in it, named with the
	 * task and its recorded commands; any other failure as it is.
	 */
	public static RuntimeException explain(RuntimeException failure, TaskRecord record, RunIdentity identity) {
		NonDeterministicWorkflowException mismatch = mismatch(failure);
		if (mismatch == null) {
			return failure;
		}
		return new NonDeterministicWorkflowException(
				"Workflow task " + record.seq() + " of " + identity.workflowType() + " run " + identity.runId()
						+ " does not replay: " + mismatch.getMessage() + "; recorded commands of the task: "
						+ record.commands().stream().map((e) -> e.describe()).toList(),
				record.seq(), mismatch.recordedCommand(), mismatch.issuedCommand());
	}

	/** The failure of a check's replay of one history, as the report shows it. */
	public static RunFailure describe(RuntimeException failure, String workflowType, String workflowId,
			@Nullable UUID runId) {
		String run = (runId != null) ? runId.toString() : null;
		NonDeterministicWorkflowException mismatch = mismatch(failure);
		if (mismatch != null) {
			return new RunFailure(workflowType, workflowId, run, FailureKind.MISMATCH, mismatch.workflowTask(),
					mismatch.recordedCommand(), mismatch.issuedCommand(), mismatch.getMessage());
		}
		return new RunFailure(workflowType, workflowId, run, FailureKind.ERROR, 0, null, null, rootMessage(failure));
	}

	private static @Nullable NonDeterministicWorkflowException mismatch(Throwable failure) {
		return Errors.cause(failure, NonDeterministicWorkflowException.class);
	}

	private static String rootMessage(Throwable failure) {
		Throwable root = Errors.root(failure);
		String message = root.getMessage();
		return (message != null) ? message : root.getClass().getSimpleName();
	}

}
