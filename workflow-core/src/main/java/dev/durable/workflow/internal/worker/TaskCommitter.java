package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.util.UUID;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.internal.commit.TaskCommit;
import dev.durable.workflow.internal.commit.TaskCommitRepository;
import dev.durable.workflow.internal.versioning.BuildRouter;
import dev.durable.workflow.internal.node.NodeLease;
import dev.durable.workflow.testsupport.EngineHooks;

/**
 * Writes a workflow task's commit: one statement without a transaction block when it fits
 * (the group commit batches it with others), else one transaction.
 */
final class TaskCommitter {

	private final TaskCommitRepository commits;

	private final TransactionTemplate tx;

	private final EngineHooks hooks;

	private final NodeLease lease;

	private final BuildRouter routing;

	private final Clock clock;

	TaskCommitter(TaskCommitRepository commits, TransactionTemplate tx, EngineHooks hooks, NodeLease lease,
			BuildRouter routing, Clock clock) {
		this.routing = routing;
		this.clock = clock;
		this.commits = commits;
		this.tx = tx;
		this.hooks = hooks;
		this.lease = lease;
	}

	/**
	 * @return what the commit did to other runs, or {@code null} when the compare-and-set
	 * failed and nothing was written
	 */
	TaskCommit.Effects commit(UUID runId, TaskCommit commit) {
		if (TaskCommitRepository.isSingleStatement(commit)) {
			this.hooks.beforeTaskCommit(runId);
			refuseWhenFenced();
			return written(runId, this.commits.commitAlone(commit));
		}
		return written(runId, this.tx.execute((status) -> {
			this.hooks.beforeTaskCommit(runId);
			refuseWhenFenced();
			TaskCommit.Effects done = this.commits.commit(commit);
			if (done == null) {
				status.setRollbackOnly();
			}
			return done;
		}));
	}

	private TaskCommit.Effects written(UUID runId, TaskCommit.Effects done) {
		if (done != null) {
			this.routing.taskCommitted(this.clock.instant());
			this.hooks.afterTaskCommit(runId);
		}
		return done;
	}

	/**
	 * A fenced node commits nothing, even a task that began before its lease ran out: the
	 * epoch's compare-and-set would refuse the commit once another node took the run
	 * over, but the node stops by itself before that may happen.
	 */
	private void refuseWhenFenced() {
		if (this.lease.isFenced()) {
			throw new DataAccessResourceFailureException(this.lease.reason());
		}
	}

}
