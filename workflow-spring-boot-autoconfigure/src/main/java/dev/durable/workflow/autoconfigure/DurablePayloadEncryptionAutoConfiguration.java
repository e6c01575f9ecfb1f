package dev.durable.workflow.autoconfigure;

import java.util.Base64;
import java.util.Map;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.payload.EncryptingPayloadConverter;
import dev.durable.workflow.payload.PayloadConverter;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of payload encryption: when
 * {@code durable.workflow.payload.encryption.keys.*} or {@code .current-key} is set, an
 * {@link EncryptingPayloadConverter} of the JSON converter becomes the engine's
 * {@link PayloadConverter} (unless the application defines its own). The keys are checked
 * at startup; a failure names the property, never its value.
 */
@AutoConfiguration(before = DurableWorkflowAutoConfiguration.class)
@ConditionalOnClass(WorkflowEngine.class)
@EnableConfigurationProperties(DurableWorkflowProperties.class)
public final class DurablePayloadEncryptionAutoConfiguration {

	static final String PREFIX = "durable.workflow.payload.encryption";

	@Bean
	@ConditionalOnMissingBean(PayloadConverter.class)
	@Conditional(OnEncryptionConfigured.class)
	EncryptingPayloadConverter durableWorkflowPayloadConverter(DurableWorkflowProperties properties) {
		return converter(properties.getPayload().getEncryption());
	}

	static EncryptingPayloadConverter converter(DurableWorkflowProperties.Payload.Encryption encryption) {
		Map<String, String> keys = encryption.getKeys();
		if (keys.isEmpty()) {
			throw invalid(PREFIX + ".keys",
					"at least one key is required, e.g. " + PREFIX + ".keys.k1=<base64 of 32 random bytes>");
		}
		EncryptingPayloadConverter.Builder builder = EncryptingPayloadConverter.builder()
			.rejectUnencrypted(encryption.isRejectUnencrypted());
		keys.forEach((id, value) -> {
			String property = PREFIX + ".keys." + id;
			byte[] key;
			try {
				key = Base64.getDecoder().decode((value != null) ? value.trim() : "");
			}
			catch (IllegalArgumentException ex) {
				// the message of the decoder may quote the value: not passed on
				throw invalid(property, "the value is not base64");
			}
			if (key.length != 16 && key.length != 24 && key.length != 32) {
				throw invalid(property, "the value decodes to " + key.length
						+ " bytes; an AES key is 16, 24 or 32 bytes (32 recommended)");
			}
			try {
				builder.key(id, key);
			}
			catch (IllegalArgumentException ex) {
				throw invalid(property, "a key id is 1 to 64 characters of a-z A-Z 0-9 . _ -");
			}
		});
		String current = encryption.getCurrentKey();
		if (current == null || current.isBlank()) {
			throw invalid(PREFIX + ".current-key", "it is required with keys: the id of the key that encrypts new"
					+ " payloads, one of " + keys.keySet());
		}
		if (!keys.containsKey(current)) {
			throw invalid(PREFIX + ".current-key", "'" + current + "' is not one of the key ids " + keys.keySet());
		}
		return builder.currentKey(current).build();
	}

	private static IllegalStateException invalid(String property, String reason) {
		return new IllegalStateException(
				"Invalid " + property + ": " + reason + " (values of " + PREFIX + ".keys are never shown)");
	}

	/**
	 * Any encryption property set: a key without current-key must fail, not silently
	 * store clear text.
	 */
	static final class OnEncryptionConfigured extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			Binder binder = Binder.get(context.getEnvironment());
			boolean keys = binder.bind(PREFIX + ".keys", Bindable.mapOf(String.class, String.class))
				.map((map) -> !map.isEmpty())
				.orElse(false);
			boolean current = binder.bind(PREFIX + ".current-key", String.class).isBound();
			return (keys || current) ? ConditionOutcome.match(PREFIX + ".keys or .current-key is set")
					: ConditionOutcome.noMatch("no " + PREFIX + " property is set");
		}

	}

}
