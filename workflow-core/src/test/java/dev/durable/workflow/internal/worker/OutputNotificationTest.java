package dev.durable.workflow.internal.worker;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import dev.durable.workflow.internal.wakeup.WakeupChannel;
import dev.durable.workflow.support.FreezingProxy;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The news of a run's new events and stream values, and of an awaited run's close,
 * between nodes: a notification names the run, and each time the listener (re)connects,
 * after which notifications sent meanwhile are lost, every reader and result waiter is
 * told to read again ({@code null}).
 */
class OutputNotificationTest {

	@Test
	void aRunsOutputsReachTheOtherNodesAndAReconnectTellsEveryReaderToReadAgain() throws Exception {
		String schema = TestDatabase.newSchema();
		UUID run = UUID.randomUUID();
		UUID awaited = UUID.randomUUID();
		List<UUID> heard = new CopyOnWriteArrayList<>();
		List<UUID> closes = new CopyOnWriteArrayList<>();
		try (FreezingProxy proxy = new FreezingProxy(18520, 18549, TestDatabase.postgres().getPort());
				WakeupChannel listening = new WakeupChannel(TestDatabase.dataSource(), direct(proxy.port()), schema,
						Duration.ofMillis(500), 1);
				WakeupChannel sending = new WakeupChannel(TestDatabase.dataSource(), TestDatabase.dataSource(),
						schema)) {
			listening.listenForOutputs(UUID.randomUUID(), (runId) -> heard.add((runId != null) ? runId : NONE),
					(runId) -> closes.add((runId != null) ? runId : NONE));
			await("listening").atMost(Duration.ofSeconds(10))
				.until(() -> heard.contains(NONE) && closes.contains(NONE));
			await("a close's notification names the run").atMost(Duration.ofSeconds(10)).until(() -> {
				sending.notifyClosed(awaited);
				return closes.contains(awaited);
			});

			await("a notification names the run").atMost(Duration.ofSeconds(10)).until(() -> {
				sending.notifyOutputs(run);
				return heard.contains(run);
			});

			proxy.freezeOpenConnections();
			long before = heard.stream().filter(NONE::equals).count();
			long closesBefore = closes.stream().filter(NONE::equals).count();
			await("listening again: every reader reads again").atMost(Duration.ofSeconds(15))
				.until(() -> heard.stream().filter(NONE::equals).count() > before);
			await("and every result waiter").atMost(Duration.ofSeconds(5))
				.until(() -> closes.stream().filter(NONE::equals).count() > closesBefore);
			assertThat(heard).allMatch(Objects::nonNull).containsOnly(NONE, run);
			assertThat(closes).containsOnly(NONE, awaited);
		}
	}

	@Test
	void theNewsWakesTheReadersOfTheRunOrOfEveryRunButNoResultWaiter() {
		ResultWaiters waiters = new ResultWaiters();
		UUID one = UUID.randomUUID();
		UUID two = UUID.randomUUID();
		var result = waiters.future(one);
		var readerOfOne = waiters.future(ResultWaiters.outputKey(one));
		var readerOfTwo = waiters.future(ResultWaiters.outputKey(two));
		waiters.outputsCommittedElsewhere(two);
		assertThat(readerOfTwo).isDone();
		assertThat(readerOfOne).isNotDone();
		var again = waiters.future(ResultWaiters.outputKey(two));
		assertThat(again).as("a new wait after a wake-up").isNotDone();
		waiters.outputsCommittedElsewhere(null);
		assertThat(readerOfOne).isDone();
		assertThat(again).isDone();
		assertThat(result).as("a result waiter is not an output reader").isNotDone();

		var readerAtTheEnd = waiters.future(ResultWaiters.outputKey(one));
		List<UUID> sent = new CopyOnWriteArrayList<>();
		waiters.sendNewsWith(sent::add, (runId) -> {
		});
		waiters.closed(one);
		assertThat(result).isDone();
		assertThat(readerAtTheEnd).as("a closed run writes nothing more").isDone();
		assertThat(sent).as("a close tells no other node by itself").isEmpty();
		waiters.outputsCommitted(two);
		assertThat(sent).containsExactly(two);
	}

	/** Stands for {@code null} (everything) in the list. */
	private static final UUID NONE = new UUID(0, 0);

	private static DataSource direct(int port) {
		PGSimpleDataSource dataSource = new PGSimpleDataSource();
		dataSource.setUrl("jdbc:postgresql://127.0.0.1:" + port + "/postgres");
		dataSource.setUser("postgres");
		dataSource.setConnectTimeout(3);
		return dataSource;
	}

}
