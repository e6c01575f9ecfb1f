package dev.durable.workflow.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.payload.EncryptingPayloadConverter;
import dev.durable.workflow.payload.PayloadConverter;
import dev.durable.workflow.web.app.OrderWorkflow;
import dev.durable.workflow.web.app.WebTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code durable.workflow.payload.encryption.*}: the keys make an
 * {@link EncryptingPayloadConverter} the engine's converter, bad keys fail the startup
 * naming the property (never the value), and the REST history shows the payloads
 * decrypted.
 */
class PayloadEncryptionPropertiesTest {

	private static final AtomicInteger SCHEMAS = new AtomicInteger();

	private static final String K1 = Base64.getEncoder().encodeToString(key(1));

	private static final String K2 = Base64.getEncoder().encodeToString(key(2));

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DurablePayloadEncryptionAutoConfiguration.class));

	@Test
	void keysCreateTheEncryptingConverter() {
		this.runner
			.withPropertyValues("durable.workflow.payload.encryption.keys.k1=" + K1,
					"durable.workflow.payload.encryption.keys.k2=" + K2,
					"durable.workflow.payload.encryption.current-key=k2")
			.run((context) -> {
				EncryptingPayloadConverter converter = context.getBean(EncryptingPayloadConverter.class);
				assertThat(context.getBean(PayloadConverter.class)).isSameAs(converter);
				assertThat(converter.currentKeyId()).isEqualTo("k2");
				byte[] underK1 = EncryptingPayloadConverter.builder()
					.key("k1", key(1))
					.currentKey("k1")
					.build()
					.toPayload("old", String.class);
				assertThat(converter.fromPayload(underK1, String.class)).isEqualTo("old");
			});
	}

	@Test
	void withoutKeysThereIsNoConverter() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(PayloadConverter.class));
	}

	@Test
	void theApplicationsOwnConverterWins() {
		this.runner.withBean(PayloadConverter.class, PayloadConverter::json)
			.withPropertyValues("durable.workflow.payload.encryption.keys.k1=" + K1,
					"durable.workflow.payload.encryption.current-key=k1")
			.run((context) -> assertThat(context).doesNotHaveBean(EncryptingPayloadConverter.class)
				.hasSingleBean(PayloadConverter.class));
	}

	@Test
	void aValueThatIsNotBase64FailsNamingTheProperty() {
		String secret = "not*base64*" + K1;
		failsWith("Invalid durable.workflow.payload.encryption.keys.k1: the value is not base64", secret,
				"durable.workflow.payload.encryption.keys.k1=" + secret,
				"durable.workflow.payload.encryption.current-key=k1");
	}

	@Test
	void aKeyOfTheWrongSizeFailsNamingTheProperty() {
		String shortKey = Base64.getEncoder().encodeToString(new byte[20]);
		failsWith("Invalid durable.workflow.payload.encryption.keys.k1: the value decodes to 20 bytes", shortKey,
				"durable.workflow.payload.encryption.keys.k1=" + shortKey,
				"durable.workflow.payload.encryption.current-key=k1");
	}

	@Test
	void aMissingOrUnknownCurrentKeyFailsNamingTheProperty() {
		failsWith("Invalid durable.workflow.payload.encryption.current-key: it is required", K1,
				"durable.workflow.payload.encryption.keys.k1=" + K1);
		failsWith("Invalid durable.workflow.payload.encryption.current-key: 'k9' is not one of the key ids [k1]", K1,
				"durable.workflow.payload.encryption.keys.k1=" + K1,
				"durable.workflow.payload.encryption.current-key=k9");
		failsWith("Invalid durable.workflow.payload.encryption.keys: at least one key is required", K1,
				"durable.workflow.payload.encryption.current-key=k1");
	}

	private void failsWith(String message, String secret, String... properties) {
		this.runner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context).getFailure().rootCause().hasMessageStartingWith(message);
			assertThat(context.getStartupFailure()).hasStackTraceContaining(message);
			for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
				assertThat(String.valueOf(t.getMessage())).doesNotContain(secret);
			}
		});
	}

	@Test
	void theRestHistoryShowsDecryptedPayloadsStoredEncrypted() {
		String schema = "encrypted" + SCHEMAS.incrementAndGet() + "_" + Long.toHexString(System.nanoTime() & 0xFFFFFF);
		new WebApplicationContextRunner().withUserConfiguration(WebTestApplication.class)
			.withPropertyValues("durable.workflow.schema=" + schema, "durable.workflow.embedded-postgres.enabled=false",
					"durable.workflow.worker.poll-interval=100ms", "durable.workflow.payload.encryption.keys.k1=" + K1,
					"durable.workflow.payload.encryption.current-key=k1")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				WorkflowClient client = context.getBean(WorkflowClient.class);
				client.start(OrderWorkflow::run, new OrderWorkflow.Order("Darjeeling", 2),
						StartOptions.withId("sealed-tea"));
				client.handle("sealed-tea").signal("addNote", "leave at the door");
				client.handle("sealed-tea").signal("finish", null);
				assertThat(client.handle("sealed-tea", String.class).result(Duration.ofSeconds(30)))
					.contains("Darjeeling");

				JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
				byte[] input = jdbc.queryForObject(
						"SELECT p.input FROM " + schema + ".run_payload p JOIN " + schema
								+ ".workflow_run r ON r.run_id = p.run_id WHERE r.workflow_id = 'sealed-tea'",
						byte[].class);
				assertThat(EncryptingPayloadConverter.keyId(input)).isEqualTo("k1");

				MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
				mvc.perform(get("/durable/workflows/sealed-tea/history"))
					.andExpect(status().isOk())
					.andExpect(
							jsonPath("$[?(@.type == 'WORKFLOW_STARTED')].attributes.payload.item").value("Darjeeling"))
					.andExpect(jsonPath("$[?(@.type == 'SIGNAL_RECEIVED')].attributes.payload")
						.value(org.hamcrest.Matchers.hasItem("leave at the door")));
			});
	}

	@Test
	void aResultUnderAKeyTheNodeLacksIsAServerProblemNotBadInput() {
		String schema = "rotated" + SCHEMAS.incrementAndGet() + "_" + Long.toHexString(System.nanoTime() & 0xFFFFFF);
		WebApplicationContextRunner app = new WebApplicationContextRunner()
			.withUserConfiguration(WebTestApplication.class)
			.withPropertyValues("durable.workflow.schema=" + schema, "durable.workflow.embedded-postgres.enabled=false",
					"durable.workflow.worker.poll-interval=100ms");
		app.withPropertyValues("durable.workflow.payload.encryption.keys.k1=" + K1,
				"durable.workflow.payload.encryption.current-key=k1")
			.run((context) -> {
				WorkflowClient client = context.getBean(WorkflowClient.class);
				client.start(OrderWorkflow::run, new OrderWorkflow.Order("Assam", 1), StartOptions.withId("lost-key"));
				client.handle("lost-key").signal("finish", null);
				assertThat(client.handle("lost-key", String.class).result(Duration.ofSeconds(30))).contains("Assam");
			});
		// k1 removed too early: the stored result cannot be read here, which is the
		// node's problem
		app.withPropertyValues("durable.workflow.payload.encryption.keys.k2=" + K2,
				"durable.workflow.payload.encryption.current-key=k2")
			.run((context) -> {
				MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
				mvc.perform(get("/durable/workflows/lost-key/result"))
					.andExpect(status().isInternalServerError())
					.andExpect(jsonPath("$.code").value("PAYLOAD_UNREADABLE"))
					.andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("unknown key id 'k1'")));
				mvc.perform(get("/durable/workflows/lost-key/history")).andExpect(status().isOk());
			});
	}

	private static byte[] key(int seed) {
		byte[] key = new byte[32];
		Arrays.fill(key, (byte) seed);
		return key;
	}

}
