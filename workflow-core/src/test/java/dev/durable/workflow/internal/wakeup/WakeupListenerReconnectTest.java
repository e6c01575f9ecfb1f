package dev.durable.workflow.internal.wakeup;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import dev.durable.workflow.support.FreezingProxy;
import dev.durable.workflow.support.TestDatabase;

import static org.awaitility.Awaitility.await;

/**
 * The wake-up listener leaves a connection whose server went silent without closing it (a
 * crashed or partitioned primary) and listens again on a new one: a notification sent
 * afterwards arrives.
 */
class WakeupListenerReconnectTest {

	@Test
	void listenerReconnectsWhenItsConnectionGoesSilent() throws Exception {
		String schema = TestDatabase.newSchema();
		UUID self = UUID.randomUUID();
		AtomicInteger wakeups = new AtomicInteger();
		try (FreezingProxy proxy = new FreezingProxy(18420, 18449, TestDatabase.postgres().getPort());
				WakeupChannel channel = new WakeupChannel(TestDatabase.dataSource(), direct(proxy.port()), schema,
						Duration.ofMillis(500), 1)) {
			channel.listen(self, wakeups::incrementAndGet, (q) -> {
			}, (q) -> {
			}, (r) -> {
			}, (r) -> {
			}, (r) -> {
			}, () -> {
			});
			await("listening").atMost(Duration.ofSeconds(10)).until(() -> wakeups.get() >= 1);
			proxy.freezeOpenConnections();
			int before = wakeups.get();
			// listening again means one wake-up for what was sent while it was not
			await("listening again on a new connection").atMost(Duration.ofSeconds(15))
				.until(() -> wakeups.get() > before);
			int reconnected = wakeups.get();
			await("a notification arrives on the new connection").atMost(Duration.ofSeconds(10)).until(() -> {
				TestDatabase.jdbc()
					.queryForObject("SELECT pg_notify(?, ?)::text", String.class, "durable_" + schema, self.toString());
				return wakeups.get() > reconnected;
			});
		}
	}

	/**
	 * A plain driver data source, one new session per call, as the listener's direct data
	 * source is in production behind a pooler. (A Hikari pool over the proxy also keeps
	 * frozen idle sessions, whose validation on a loaded machine outlasted the test's
	 * waits: that tested the pool, not the listener.)
	 */
	private static DataSource direct(int port) {
		PGSimpleDataSource dataSource = new PGSimpleDataSource();
		dataSource.setUrl("jdbc:postgresql://127.0.0.1:" + port + "/postgres");
		dataSource.setUser("postgres");
		dataSource.setConnectTimeout(3);
		return dataSource;
	}

}
