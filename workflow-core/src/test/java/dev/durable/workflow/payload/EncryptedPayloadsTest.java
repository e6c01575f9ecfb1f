package dev.durable.workflow.payload;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * An engine with an {@link EncryptingPayloadConverter}: what it stores holds no plaintext
 * of the payloads, results and history read back decrypted, keys rotate without breaking
 * runs, a removed key fails clearly, and payloads written before encryption stay
 * readable.
 */
@Timeout(120)
class EncryptedPayloadsTest {

	/**
	 * A string every payload of the scenario carries; it must never reach the database in
	 * clear.
	 */
	static final String MARKER = "Zebra-Quokka-7731";

	static final byte[] KEY_A = bytes(1);

	static final byte[] KEY_B = bytes(2);

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/**
	 * Activities whose arguments, results, heartbeats and failure details carry the
	 * marker.
	 */
	@Activity
	public static class Stamper {

		public String stamp(String note) {
			return "stamped " + note;
		}

		/**
		 * Heartbeats and fails its first attempt (the details and failure stored for the
		 * retry).
		 */
		@ActivityMethod(initialInterval = "PT1M", maxAttempts = 3)
		public String retried(String note) {
			ActivityContext context = ActivityContext.current();
			String previous = context.heartbeatDetails(String.class);
			if (previous == null) {
				context.heartbeat(note + " heartbeat");
				throw ApplicationFailure.newFailure("first attempt fails", "Flaky", note + " details");
			}
			return "retried " + previous;
		}

	}

	public record Order(String id, String note) {
	}

	/**
	 * Runs an activity, takes an update and a signal, answers a query, returns all of it.
	 */
	@Workflow("encrypted-order")
	public static class OrderFlow {

		private final Stamper stamper;

		private String stamped;

		private String signal;

		private String updated;

		public OrderFlow(Stamper stamper) {
			this.stamper = stamper;
		}

		@WorkflowRun
		public String run(Order order) {
			if (order.id().startsWith("retried")) {
				this.stamped = this.stamper.retried(order.note());
				return this.stamped;
			}
			this.stamped = this.stamper.stamp(order.note());
			Workflows.await(() -> this.signal != null && this.updated != null);
			return this.stamped + " / " + this.signal + " / " + this.updated;
		}

		@SignalMethod
		public void note(String text) {
			this.signal = text;
		}

		@UpdateMethod
		public String rename(String text) {
			this.updated = "renamed " + text;
			return this.updated;
		}

		@QueryMethod
		public String stamped() {
			return this.stamped;
		}

	}

	private static EncryptingPayloadConverter converter(String current, Map<String, byte[]> keys) {
		return EncryptingPayloadConverter.builder().keys(keys).currentKey(current).build();
	}

	private WorkflowEngine start(PayloadConverter converter) {
		return this.engines.start(this.engines.builder()
			.register(OrderFlow.class)
			.registerActivities(new Stamper())
			.payloadConverter(converter));
	}

	@Test
	void storesNoPlaintextAndReadsBackDecrypted() {
		WorkflowEngine engine = start(converter("a", Map.of("a", KEY_A)));
		WorkflowHandle<String> handle = engine.client()
			.start(OrderFlow::run, new Order("o-1", MARKER + " input"), StartOptions.withId("enc-1"));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> ("stamped " + MARKER + " input").equals(handle.query(OrderFlow::stamped)));
		// a signal with no worker to take it: it waits in the inbox, encrypted
		engine.shutdown();
		WorkflowEngine client = this.engines.start(this.engines.builder()
			.register(OrderFlow.class)
			.worker(false)
			.payloadConverter(converter("a", Map.of("a", KEY_A))));
		client.client().handle("enc-1", String.class).signal(OrderFlow::note, MARKER + " signal");
		assertThat(this.engines.count("inbox")).isPositive();
		assertThat(plaintextColumns()).as("columns with the marker in clear").isEmpty();

		WorkflowEngine worker = start(converter("a", Map.of("a", KEY_A)));
		WorkflowHandle<String> again = worker.client().handle("enc-1", String.class);
		assertThat(again.update(OrderFlow::rename, MARKER + " update")).isEqualTo("renamed " + MARKER + " update");
		assertThat(again.result(Duration.ofSeconds(30)))
			.isEqualTo("stamped " + MARKER + " input / " + MARKER + " signal / renamed " + MARKER + " update");
		assertThat(plaintextColumns()).as("columns with the marker in clear").isEmpty();

		// what people read is decrypted: the history shows the values
		List<HistoryEvent> history = again.history();
		assertThat(attribute(history, "WORKFLOW_STARTED", "payload"))
			.isEqualTo(Map.of("id", "o-1", "note", MARKER + " input"));
		assertThat(attribute(history, "ACTIVITY_SCHEDULED", "arguments")).isEqualTo(List.of(MARKER + " input"));
		assertThat(attribute(history, "SIGNAL_RECEIVED", "payload")).isEqualTo(MARKER + " signal");
		assertThat(attribute(history, "WORKFLOW_COMPLETED", "payload")).asString().contains(MARKER + " update");
		assertThat(keyIdOfStored("enc-1", "result")).isEqualTo("a");
	}

	@Test
	void activityRowsOfARetryHoldNoPlaintext() {
		WorkflowEngine engine = start(converter("a", Map.of("a", KEY_A)));
		WorkflowHandle<String> handle = engine.client()
			.start(OrderFlow::run, new Order("retried-1", MARKER + " input"), StartOptions.withId("enc-retry"));
		// the failed first attempt waits a minute (of the settable clock) with its row:
		// input,
		// heartbeat details and last failure
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.engines.jdbc()
				.queryForObject(
						"SELECT count(*) FROM " + this.engines.schema + ".activity WHERE last_failure IS NOT NULL"
								+ " AND heartbeat_details IS NOT NULL AND input IS NOT NULL",
						Integer.class) == 1);
		assertThat(plaintextColumns()).as("columns with the marker in clear").isEmpty();
		this.engines.clock.advance(Duration.ofMinutes(2));
		assertThat(handle.result(Duration.ofSeconds(30))).isEqualTo("retried " + MARKER + " input heartbeat");
		assertThat(plaintextColumns()).as("columns with the marker in clear").isEmpty();
	}

	/**
	 * Proves {@link #plaintextColumns()} finds the marker when payloads are not
	 * encrypted.
	 */
	@Test
	void theScanFindsThePlaintextOfAnUnencryptedEngine() {
		WorkflowEngine engine = start(PayloadConverter.json());
		WorkflowHandle<String> handle = engine.client()
			.start(OrderFlow::run, new Order("o-2", MARKER + " input"), StartOptions.withId("plain-1"));
		handle.signal(OrderFlow::note, MARKER + " signal");
		handle.update(OrderFlow::rename, "x");
		handle.result(Duration.ofSeconds(30));
		assertThat(plaintextColumns()).contains("history.events", "run_payload.input", "run_payload.result");
	}

	@Test
	void runsStartedUnderAnOldKeyFinishAfterRotation() {
		WorkflowEngine before = start(converter("a", Map.of("a", KEY_A)));
		WorkflowHandle<String> handle = before.client()
			.start(OrderFlow::run, new Order("o-3", "rotate"), StartOptions.withId("rotate-1"));
		await().atMost(Duration.ofSeconds(30)).until(() -> handle.query(OrderFlow::stamped) != null);
		before.shutdown();

		// rotation: b is added and made current, a is kept for reading
		WorkflowEngine after = start(converter("b", Map.of("a", KEY_A, "b", KEY_B)));
		WorkflowHandle<String> again = after.client().handle("rotate-1", String.class);
		again.signal(OrderFlow::note, "signal");
		again.update(OrderFlow::rename, "update");
		assertThat(again.result(Duration.ofSeconds(30))).isEqualTo("stamped rotate / signal / renamed update");
		assertThat(keyIdOfStored("rotate-1", "input")).isEqualTo("a");
		assertThat(keyIdOfStored("rotate-1", "result")).isEqualTo("b");
	}

	@Test
	void aPayloadUnderARemovedKeyFailsNamingTheKeyId() {
		WorkflowEngine before = start(converter("a", Map.of("a", KEY_A)));
		WorkflowHandle<String> done = before.client()
			.start(OrderFlow::run, new Order("o-4", "done"), StartOptions.withId("removed-1"));
		done.signal(OrderFlow::note, "s");
		done.update(OrderFlow::rename, "u");
		done.result(Duration.ofSeconds(30));
		WorkflowHandle<String> open = before.client()
			.start(OrderFlow::run, new Order("o-5", "open"), StartOptions.withId("removed-2"));
		await().atMost(Duration.ofSeconds(30)).until(() -> open.query(OrderFlow::stamped) != null);
		before.shutdown();

		WorkflowEngine after = start(converter("b", Map.of("b", KEY_B)));
		String keyText = Base64.getEncoder().encodeToString(KEY_A);
		assertThatThrownBy(() -> after.client().handle("removed-1", String.class).result(Duration.ofSeconds(5)))
			.isInstanceOf(PayloadException.class)
			.hasMessageContaining("unknown key id 'a'")
			.message()
			.doesNotContain(keyText);
		// the history still lists, the payload says why it is not shown
		Object payload = attribute(after.client().handle("removed-1", String.class).history(), "WORKFLOW_STARTED",
				"payload");
		assertThat(payload).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
			.containsKey("$encoded")
			.containsEntry("$undecodable", ((Map<?, ?>) payload).get("$undecodable"));
		assertThat((String) ((Map<?, ?>) payload).get("$undecodable")).contains("unknown key id 'a'");

		// the open run's next task cannot decode its input: it is stuck with that reason,
		// not lost
		WorkflowHandle<String> stuck = after.client().handle("removed-2", String.class);
		stuck.signal(OrderFlow::note, "s");
		await().atMost(Duration.ofSeconds(30)).until(() -> stuck.describe().taskFailure() != null);
		assertThat(stuck.describe().taskFailure()).contains("unknown key id 'a'").doesNotContain(keyText);
		assertThat(stuck.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
	}

	@Test
	void payloadsWrittenBeforeEncryptionStayReadable() {
		WorkflowEngine plain = start(PayloadConverter.json());
		WorkflowHandle<String> handle = plain.client()
			.start(OrderFlow::run, new Order("o-6", "plain"), StartOptions.withId("before-1"));
		await().atMost(Duration.ofSeconds(30)).until(() -> handle.query(OrderFlow::stamped) != null);
		plain.shutdown();

		WorkflowEngine encrypting = start(converter("a", Map.of("a", KEY_A)));
		WorkflowHandle<String> again = encrypting.client().handle("before-1", String.class);
		again.signal(OrderFlow::note, "signal");
		again.update(OrderFlow::rename, "update");
		assertThat(again.result(Duration.ofSeconds(30))).isEqualTo("stamped plain / signal / renamed update");
		assertThat(keyIdOfStored("before-1", "input")).isNull();
		assertThat(keyIdOfStored("before-1", "result")).isEqualTo("a");
		encrypting.shutdown();

		// once no such run is left, unencrypted payloads can be refused
		WorkflowEngine strict = start(
				EncryptingPayloadConverter.builder().key("a", KEY_A).currentKey("a").rejectUnencrypted(true).build());
		WorkflowHandle<String> old = strict.client().handle("before-1", String.class);
		assertThat(old.result(Duration.ofSeconds(5))).contains("renamed update");
		assertThat(attribute(old.history(), "WORKFLOW_STARTED", "payload")).asString().contains("not encrypted");
	}

	/**
	 * The table.column names (bytea and jsonb) of the test schema with the marker in
	 * clear or in base64.
	 */
	private List<String> plaintextColumns() {
		List<String> found = new ArrayList<>();
		List<Map<String, Object>> columns = this.engines.jdbc()
			.queryForList("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = ?"
					+ " AND data_type IN ('bytea', 'jsonb', 'text', 'character varying')", this.engines.schema);
		for (Map<String, Object> column : columns) {
			String name = column.get("table_name") + "." + column.get("column_name");
			List<byte[]> values = this.engines.jdbc()
				.query("SELECT convert_to(" + column.get("column_name") + "::text, 'UTF8') FROM " + this.engines.schema
						+ "." + column.get("table_name") + " WHERE " + column.get("column_name") + " IS NOT NULL",
						(rs, i) -> rs.getBytes(1));
			for (byte[] value : values) {
				if (containsMarker(bytea(value), 0)) {
					found.add(name);
					break;
				}
			}
		}
		return found;
	}

	/** bytea::text is its hex form ({@code \x...}); other columns are their text. */
	private static byte[] bytea(byte[] text) {
		String s = new String(text, StandardCharsets.UTF_8);
		if (s.startsWith("\\x")) {
			return java.util.HexFormat.of().parseHex(s.substring(2));
		}
		return text;
	}

	private static final Pattern BASE64 = Pattern.compile("[A-Za-z0-9+/]{12,}={0,2}");

	/**
	 * The marker in clear, or inside base64 (payloads nest: an event payload, packed
	 * arguments).
	 */
	private static boolean containsMarker(byte[] bytes, int depth) {
		String text = new String(bytes, StandardCharsets.ISO_8859_1);
		if (text.contains(MARKER)) {
			return true;
		}
		if (depth > 3) {
			return false;
		}
		Matcher matcher = BASE64.matcher(text);
		while (matcher.find()) {
			try {
				if (containsMarker(Base64.getDecoder().decode(matcher.group()), depth + 1)) {
					return true;
				}
			}
			catch (IllegalArgumentException ex) {
				// not base64 after all
			}
		}
		return false;
	}

	/** The key id of the stored input or result of the run of that workflow id. */
	private String keyIdOfStored(String workflowId, String column) {
		byte[] payload = this.engines.jdbc()
			.queryForObject(
					"SELECT p." + column + " FROM " + this.engines.schema + ".run_payload p JOIN " + this.engines.schema
							+ ".workflow_run r ON r.run_id = p.run_id WHERE r.workflow_id = ?",
					byte[].class, workflowId);
		return EncryptingPayloadConverter.keyId(payload);
	}

	private static Object attribute(List<HistoryEvent> history, String type, String name) {
		return history.stream()
			.filter((e) -> e.type().equals(type))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no " + type + " in " + history))
			.attributes()
			.get(name);
	}

	private static byte[] bytes(int seed) {
		byte[] key = new byte[32];
		for (int i = 0; i < key.length; i++) {
			key[i] = (byte) (seed * 31 + i);
		}
		return key;
	}

}
