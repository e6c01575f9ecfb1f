package dev.durable.workflow.internal.commit;

import java.sql.Connection;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DuplicateKeyException;

import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.support.TransactionRecorder.End;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Group commit ({@link TaskWriter}) when something fails: a statement of a batch (in a
 * transaction or in autocommit), the commit of a batch, or the connection of a batch. A
 * failure that the database rolled back reaches only its own commit; one whose outcome is
 * unknown reaches every caller of the batch.
 */
class TaskWriterFailureTest extends TaskWriterFixture {

	@Test
	void aStatementThatFailsInAnAutocommitBatchRollsItBackAndFailsOnlyItsOwnCommit() throws Exception {
		UUID before = insertRun("before");
		UUID failing = insertRun("failing");
		UUID after = insertRun("after");
		Busy busy = occupyWriters();
		Caller beforeCaller = queue("before", closingTask(before, 1, false));
		Caller failingCaller = queue("failing", closingTask(failing, 1, false));
		Caller afterCaller = queue("after", closingTask(after, 1, false));
		// a history row 2 appears behind the owner's back: its close's insert violates
		// the key
		this.jdbc.update("INSERT INTO " + table("history") + " (run_id, seq, created_at, events)"
				+ " VALUES (?, 2, now(), '\\x00')", failing);

		busy.releaseOneWriter();

		assertThat(failingCaller.failure()).isInstanceOf(DuplicateKeyException.class);
		assertThat(this.jdbc.queryForObject("SELECT status FROM " + table("workflow_run") + " WHERE run_id = ?",
				String.class, failing))
			.as("the failing close wrote nothing")
			.isEqualTo("RUNNING");
		assertThat(beforeCaller.effects()).isNotNull();
		assertThat(afterCaller.effects()).isNotNull();
		assertClosed(before);
		assertClosed(after);
		assertOneBatch("the batch, rolled back", End.AUTOCOMMIT_BATCH_FAILED, 3);
		Thread writer = batches().get(0).thread();
		assertThat(this.recorder.of(writer)).filteredOn((t) -> t.end() == End.AUTOCOMMIT)
			.filteredOn((t) -> t.count(TaskWriterFixture::isTaskCommit) == 1)
			.as("the three closes written again one by one, after the blocked commit of this writer")
			.hasSize(4);
		assertThat(insertedBy(before, 2)).as("written one by one").isNotEqualTo(insertedBy(after, 2));
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void anAutocommitBatchWhoseConnectionBreaksFailsEveryCallerAndWritesNothing() throws Exception {
		UUID first = insertRun("first");
		UUID held = insertRun("held");
		Busy busy = occupyWriters();
		Caller firstCaller = queue("first", closingTask(first, 1, false));
		Caller heldCaller = queue("held", closingTask(held, 1, false));
		Connection lock = lock(held);

		busy.releaseOneWriter();
		// the batch wrote the first close and waits for the second's row: its session
		// ends there
		awaitLockWaits(2);
		assertThat(this.jdbc.queryForList("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
				+ " WHERE wait_event_type = 'Lock' AND query LIKE ?", Boolean.class, "%cp AS%"))
			.as("the batch's session, ended")
			.containsExactly(true);
		lock.rollback();

		assertThat(firstCaller.failure()).as("outcome unknown").isNotNull();
		assertThat(heldCaller.failure()).as("outcome unknown").isNotNull();
		assertOnlyFirstTaskOfClose(first);
		assertOnlyFirstTaskOfClose(held);
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void aStatementThatFailsInABatchFailsOnlyItsOwnCommit() throws Exception {
		UUID before = insertRun("before");
		UUID failing = insertRun("failing");
		UUID after = insertRun("after");
		Busy busy = occupyWriters();
		Caller beforeCaller = queue("before", secondTask(before));
		Caller failingCaller = queue("failing", secondTask(failing));
		Caller afterCaller = queue("after", secondTask(after));
		// a history row 2 appears behind the owner's back: its commit's insert violates
		// the key
		this.jdbc.update("INSERT INTO " + table("history") + " (run_id, seq, created_at, events)"
				+ " VALUES (?, 2, now(), '\\x00')", failing);

		busy.releaseOneWriter();

		assertThat(failingCaller.failure()).isInstanceOf(DuplicateKeyException.class);
		assertThat(historySeq(failing)).as("the failing commit wrote nothing").isEqualTo(1);
		assertThat(timers(failing)).containsExactly(1L);
		assertThat(beforeCaller.effects()).isNotNull();
		assertThat(afterCaller.effects()).isNotNull();
		assertSecondTaskWritten(before);
		assertSecondTaskWritten(after);
		// the batch (its three commits in one JDBC batch, one round trip) failed and
		// rolled back;
		// then each commit went alone
		assertOneBatch("the batch, rolled back", End.ROLLED_BACK, 3);
		Thread writer = batches().get(0).thread();
		assertThat(this.recorder.of(writer)).filteredOn((t) -> t.end() == End.AUTOCOMMIT)
			.filteredOn((t) -> t.count(TaskWriterFixture::isTaskCommit) == 1)
			.as("the three commits written again one by one, after the blocked one of this writer")
			.hasSize(4);
		assertThat(insertedBy(before, 2)).as("written one by one").isNotEqualTo(insertedBy(after, 2));
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void aFailureAtCommitReachesEveryCallerOfTheBatchAndNothingOfItIsWritten() throws Exception {
		UUID before = insertRun("before");
		UUID refused = insertRun("refused");
		UUID after = insertRun("after");
		// every statement succeeds; the history row of one run is refused when its
		// transaction commits
		this.jdbc.execute("CREATE FUNCTION " + table("refuse_at_commit") + "() RETURNS trigger LANGUAGE plpgsql AS $$"
				+ " BEGIN IF NEW.run_id = '" + refused + "' THEN RAISE EXCEPTION 'refused at commit: %', NEW.run_id;"
				+ " END IF; RETURN NULL; END $$");
		this.jdbc.execute("CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON " + table("history")
				+ " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION " + table("refuse_at_commit") + "()");
		Busy busy = occupyWriters();
		List<Caller> batch = List.of(queue("before", secondTask(before)), queue("refused", secondTask(refused)),
				queue("after", secondTask(after)));

		busy.releaseOneWriter();

		for (Caller caller : batch) {
			assertThat(Errors.rootMessage(caller.failure())).as(caller.thread.getName())
				.contains("refused at commit: " + refused);
		}
		assertOnlyFirstTask(before);
		assertOnlyFirstTask(refused);
		assertOnlyFirstTask(after);
		assertOneBatch("the batch, its commit failed", End.COMMIT_FAILED, 3);
		Thread writer = batches().get(0).thread();
		assertThat(this.recorder.of(writer)).as("nothing written again after the failed commit")
			.filteredOn((t) -> t.end() == End.AUTOCOMMIT)
			.filteredOn((t) -> t.count(TaskWriterFixture::isTaskCommit) > 0)
			.as("only the blocked commit this writer wrote before the batch")
			.hasSize(1);
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

}
