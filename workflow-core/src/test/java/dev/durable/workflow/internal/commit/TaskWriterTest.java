package dev.durable.workflow.internal.commit;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.support.TransactionRecorder.End;
import dev.durable.workflow.support.TransactionRecorder.Transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Group commit ({@link TaskWriter}, DESIGN section 5, "Performance rules"): which commits
 * go together, in which transaction, and how the writer stops. The fixture
 * ({@link TaskWriterFixture}) says how a test makes a batch of exactly the commits it
 * chooses.
 */
class TaskWriterTest extends TaskWriterFixture {

	@Test
	void aLoneCommitIsWrittenAtOnceOnItsCallersThreadInAutocommit() {
		UUID run = insertRun("lone");

		assertThat(this.tasks.commitAlone(secondTask(run))).isNotNull();

		assertSecondTaskWritten(run);
		assertThat(this.recorder.of(Thread.currentThread()))
			.filteredOn((t) -> t.count(TaskWriterFixture::isTaskCommit) > 0)
			.as("the insert and the commit, each its own statement in autocommit on this thread")
			.hasSize(2)
			.allMatch((t) -> t.end() == End.AUTOCOMMIT);
		assertThat(this.recorder.onThreads(WRITER)).isEmpty();
	}

	@Test
	void commitsThatWaitAreWrittenTogetherInOneTransaction() throws Exception {
		List<UUID> runs = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			runs.add(insertRun("waiting-" + i));
		}
		Busy busy = occupyWriters();
		List<Caller> waiting = new ArrayList<>();
		for (int i = 0; i < runs.size(); i++) {
			waiting.add(queue("waiting-" + i, secondTask(runs.get(i))));
		}

		busy.releaseOneWriter();

		for (Caller caller : waiting) {
			assertThat(caller.effects()).as(caller.thread.getName()).isNotNull();
		}
		runs.forEach(this::assertSecondTaskWritten);
		assertOneBatch("one transaction of a writer thread with the five commits", End.COMMITTED, 5);
		assertThat(runs.stream().map((r) -> insertedBy(r, 2)).distinct()).as("transactions that wrote them").hasSize(1);
		assertThat(batches().get(0).statements()).as("their timer arrays are planned generically")
			.contains(GENERIC_PLANS);
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void eachBatchHoldsTheCommitsOfOneShapeAndAShapeWithoutArraysIsOneImplicitTransaction() throws Exception {
		UUID firstStep = insertRun("first-step");
		UUID firstClose = insertRun("first-close");
		UUID secondStep = insertRun("second-step");
		UUID secondClose = insertRun("second-close");
		Busy busy = occupyWriters();
		List<Caller> callers = List.of(queue("first-step", secondTask(firstStep)),
				queue("first-close", closingTask(firstClose, 1, false)), queue("second-step", secondTask(secondStep)),
				queue("second-close", closingTask(secondClose, 1, false)));

		busy.releaseOneWriter();

		callers.forEach((caller) -> assertThat(caller.effects()).as(caller.thread.getName()).isNotNull());
		assertSecondTaskWritten(firstStep);
		assertSecondTaskWritten(secondStep);
		assertClosed(firstClose);
		assertClosed(secondClose);
		assertThat(batches()).as("the steps, then the closes").hasSize(2);
		Transaction steps = batches().get(0);
		assertThat(steps.end()).as("steps start timers: their arrays need a transaction").isEqualTo(End.COMMITTED);
		assertThat(steps.statements()).contains(GENERIC_PLANS);
		assertThat(steps.count(TaskWriterFixture::isTaskCommit)).isEqualTo(2);
		Transaction closes = batches().get(1);
		assertThat(closes.end()).as("the closes bind no array: one JDBC batch in autocommit")
			.isEqualTo(End.AUTOCOMMIT_BATCH);
		assertThat(closes.statements()).as("no generic-plan setting and no array")
			.hasSize(2)
			.allSatisfy((sql) -> assertThat(sql).isEqualTo(closes.statements().get(0)).doesNotContain("ANY("));
		assertThat(insertedBy(firstStep, 2)).as("one transaction for the steps").isEqualTo(insertedBy(secondStep, 2));
		assertThat(insertedBy(firstClose, 2)).as("one implicit transaction for the closes")
			.isEqualTo(insertedBy(secondClose, 2))
			.isNotEqualTo(insertedBy(firstStep, 2));
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void closesThatTellNoOneGoInTheJdbcBatchOfTheirShapeAndAStaleOneWritesNothing() throws Exception {
		UUID quiet = insertRun("quiet");
		UUID stale = insertRun("stale-close");
		UUID telling = insertRun("telling");
		UUID quietToo = insertRun("quiet-too");
		Busy busy = occupyWriters();
		Caller quietCaller = queue("quiet", closingTask(quiet, 1, false));
		// epoch 2: another node took the run over, so this close must write nothing
		Caller staleCaller = queue("stale-close", closingTask(stale, 2, false));
		Caller tellingCaller = queue("telling", closingTask(telling, 1, true));
		Caller quietTooCaller = queue("quiet-too", closingTask(quietToo, 1, false));

		busy.releaseOneWriter();

		assertThat(quietCaller.effects().wake()).isEmpty();
		assertThat(staleCaller.effects()).as("stale close").isNull();
		assertThat(quietTooCaller.effects().wake()).isEmpty();
		assertThat(tellingCaller.effects().wake()).isEmpty();
		assertClosed(quiet);
		assertClosed(quietToo);
		assertClosed(telling);
		assertOnlyFirstTask(stale);
		assertThat(this.jdbc.queryForObject("SELECT status FROM " + table("workflow_run") + " WHERE run_id = ?",
				String.class, stale))
			.isEqualTo("RUNNING");
		assertOneBatch("one batch with the three closes that tell no one", End.AUTOCOMMIT_BATCH, 3);
		// they share the batched statement, which ends with the history insert
		assertThat(batches().get(0).statements()).allSatisfy((sql) -> {
			assertThat(sql).contains("cp AS").doesNotContain("cparent", "cchildren");
			assertThat(sql).endsWith(") INSERT INTO " + table("history")
					+ " (run_id, seq, created_at, events) SELECT run_id, ?, ?, ? FROM u");
		});
		assertThat(insertedBy(quiet, 2)).isEqualTo(insertedBy(quietToo, 2)).isNotEqualTo(insertedBy(telling, 2));
		assertThat(this.recorder.of(batches().get(0).thread())).as("the close that tells, on its own after the batch")
			.last()
			.satisfies((t) -> {
				assertThat(t.end()).isEqualTo(End.AUTOCOMMIT);
				assertThat(t.statements()).singleElement().asString().contains("cparent", "cchildren");
			});
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void aStaleCommitInABatchWritesNothingAndTheOthersOfTheBatchAreCommitted() throws Exception {
		UUID before = insertRun("before");
		UUID stale = insertRun("stale");
		UUID after = insertRun("after");
		UUID last = insertRun("last");
		Busy busy = occupyWriters();
		// second of four, so that each caller must get the outcome of its own statement
		Caller beforeCaller = queue("before", secondTask(before));
		Caller staleCaller = queue("stale", secondTask(stale));
		Caller afterCaller = queue("after", secondTask(after));
		Caller lastCaller = queue("last", secondTask(last));
		// another node claims the run while its owner's commit waits in the queue
		this.jdbc.update("UPDATE " + table("workflow_run") + " SET epoch = epoch + 1 WHERE run_id = ?", stale);

		busy.releaseOneWriter();

		assertThat(staleCaller.effects()).as("the stale commit's compare-and-set failed").isNull();
		assertOnlyFirstTask(stale);
		for (Caller caller : List.of(beforeCaller, afterCaller, lastCaller)) {
			assertThat(caller.effects()).as(caller.thread.getName()).isNotNull();
		}
		assertSecondTaskWritten(before);
		assertSecondTaskWritten(after);
		assertSecondTaskWritten(last);
		assertOneBatch("one committed transaction with the four commits", End.COMMITTED, 4);
		assertThat(List.of(insertedBy(before, 2), insertedBy(after, 2), insertedBy(last, 2)).stream().distinct())
			.as("transactions that wrote the others")
			.hasSize(1);
		busy.releaseSecondWriter();
		busy.assertAllCommitted();
	}

	@Test
	void stoppingTheWriterWritesWhatIsQueuedBeforeItsThreadsEnd() throws Exception {
		List<UUID> runs = List.of(insertRun("queued-0"), insertRun("queued-1"), insertRun("queued-2"));
		Busy busy = occupyWriters();
		List<Caller> queued = new ArrayList<>();
		for (int i = 0; i < runs.size(); i++) {
			queued.add(queue("queued-" + i, secondTask(runs.get(i))));
		}
		Thread stopping = Thread.ofPlatform().name("stopping").start(this.tasks::stopWriter);
		await().until(() -> Arrays.stream(stopping.getStackTrace())
			.anyMatch((f) -> f.getClassName().equals(TaskWriter.class.getName()) && f.getMethodName().equals("close")));

		busy.releaseOneWriter();

		for (Caller caller : queued) {
			assertThat(caller.effects()).as(caller.thread.getName()).isNotNull();
		}
		runs.forEach(this::assertSecondTaskWritten);
		assertThat(batches()).as("written by the stopping writer, as one batch")
			.singleElement()
			.satisfies((t) -> assertThat(t.count(TaskWriterFixture::isTaskCommit)).isEqualTo(3));
		busy.releaseSecondWriter();
		stopping.join(10_000);
		assertThat(stopping.isAlive()).isFalse();
		busy.assertAllCommitted();
		assertThat(writerThreads()).as("writer threads left").isEmpty();
	}

	@Test
	void theSecondWriterThreadTakesABatchOnlyOnceTheQueueIsDeep() throws Exception {
		this.tasks.stopWriter();
		this.tasks.startWriter(WRITER, 3);
		UUID lone = insertRun("held-lone");
		UUID held = insertRun("held-by-first-writer");
		List<UUID> runs = List.of(insertRun("deep-0"), insertRun("deep-1"), insertRun("deep-2"));
		Connection lock = lock(lone, held);
		Caller loneCaller = commit("held-lone", secondTask(lone));
		awaitLockWaits(1);
		// one write waits: the first writer thread takes it, and it waits for the lock
		Caller heldCaller = queue("held-by-first-writer", secondTask(held));
		awaitLockWaits(2);

		// two more wait: below the depth, the second thread leaves them to gather
		List<Caller> deep = new ArrayList<>();
		deep.add(queue("deep-0", secondTask(runs.get(0))));
		deep.add(queue("deep-1", secondTask(runs.get(1))));
		assertThat(deep).as("still queued").allMatch(Caller::queued);
		// the third makes the queue deep: the second thread writes the three as one batch
		// (at once:
		// this caller may be done before a look at its thread could see it queued)
		deep.add(commit("deep-2", secondTask(runs.get(2))));

		for (Caller caller : deep) {
			assertThat(caller.effects()).as(caller.thread.getName()).isNotNull();
		}
		runs.forEach(this::assertSecondTaskWritten);
		assertOneBatch("one transaction with the three commits, while the first thread's write waits", End.COMMITTED,
				3);
		assertThat(batches().get(0).thread().getName()).isEqualTo(WRITER + "-1");
		assertThat(runs.stream().map((r) -> insertedBy(r, 2)).distinct()).as("transactions that wrote them").hasSize(1);
		assertThat(heldCaller.result).isNotDone();

		lock.commit();
		assertThat(heldCaller.effects()).isNotNull();
		assertThat(loneCaller.effects()).isNotNull();
		assertSecondTaskWritten(held);
	}

	@Test
	void afterTheWriterStoppedEachCommitIsWrittenOnItsCallersThread() throws Exception {
		UUID held = insertRun("held");
		UUID other = insertRun("other");
		this.tasks.stopWriter();
		assertThat(writerThreads()).isEmpty();
		Connection lock = lock(held);
		Caller heldCaller = commit("held", secondTask(held));
		awaitLockWaits(1);

		// while a commit is being written, another one is not queued: its caller writes
		// it
		Caller otherCaller = commit("other", secondTask(other));
		assertThat(otherCaller.effects()).isNotNull();
		assertSecondTaskWritten(other);
		assertThat(this.recorder.of(otherCaller.thread)).singleElement().satisfies((t) -> {
			assertThat(t.end()).isEqualTo(End.AUTOCOMMIT);
			assertThat(t.statements()).allMatch(TaskWriterFixture::isTaskCommit);
		});
		assertThat(heldCaller.result).isNotDone();

		lock.commit();
		assertThat(heldCaller.effects()).isNotNull();
		assertSecondTaskWritten(held);
		assertThat(this.recorder.of(heldCaller.thread)).singleElement()
			.satisfies((t) -> assertThat(t.end()).isEqualTo(End.AUTOCOMMIT));
		assertThat(this.recorder.onThreads(WRITER)).isEmpty();
	}

}
