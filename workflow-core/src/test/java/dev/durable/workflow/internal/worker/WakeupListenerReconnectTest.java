package dev.durable.workflow.internal.worker;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.support.FreezingProxy;
import dev.durable.workflow.support.TestDatabase;

import static org.awaitility.Awaitility.await;

/**
 * The wake-up listener leaves a connection whose server went silent without closing it (a crashed
 * or partitioned primary) and listens again on a new one: a notification sent afterwards arrives.
 */
class WakeupListenerReconnectTest {

	// In a full clean-clone run the test's own HikariPool stops handing out connections after the
	// freeze (its add-connection executor hangs), so the listener cannot reconnect in time; it passes
	// alone and beside other classes. PrimaryFailoverIT covers the listener's reconnection meanwhile.
	@org.junit.jupiter.api.Disabled("flaky in the full suite: the test pool hangs after the freeze (see comment)")
	@Test
	void listenerReconnectsWhenItsConnectionGoesSilent() throws Exception {
		String schema = TestDatabase.newSchema();
		UUID self = UUID.randomUUID();
		AtomicInteger wakeups = new AtomicInteger();
		try (FreezingProxy proxy = new FreezingProxy(18420, 18449, TestDatabase.postgres().getPort());
				HikariDataSource pool = pool(proxy.port());
				WakeupChannel channel = new WakeupChannel(pool, pool, schema, Duration.ofMillis(500), 1)) {
			channel.listen(self, wakeups::incrementAndGet, (q) -> {
			}, (q) -> {
			}, (r) -> {
			});
			await("listening").atMost(Duration.ofSeconds(10)).until(() -> wakeups.get() >= 1);
			proxy.freezeOpenConnections();
			int before = wakeups.get();
			// listening again means one wake-up for what was sent while it was not
			await("listening again on a new connection").atMost(Duration.ofSeconds(15))
				.until(() -> wakeups.get() > before);
			int reconnected = wakeups.get();
			await("a notification arrives on the new connection").atMost(Duration.ofSeconds(10)).until(() -> {
				TestDatabase.jdbc().queryForObject("SELECT pg_notify(?, ?)::text", String.class, "durable_" + schema,
						self.toString());
				return wakeups.get() > reconnected;
			});
		}
	}

	private static HikariDataSource pool(int port) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + port + "/postgres");
		config.setUsername("postgres");
		config.setMaximumPoolSize(4);
		config.setMinimumIdle(1);
		config.setConnectionTimeout(3000);
		config.setValidationTimeout(1000);
		return new HikariDataSource(config);
	}

}
