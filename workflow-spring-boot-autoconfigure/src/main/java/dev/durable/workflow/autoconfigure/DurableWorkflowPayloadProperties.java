package dev.durable.workflow.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * How payloads are stored.
 * <p>
 * Bound to {@code durable.workflow.payload.*}, as a part of
 * {@link DurableWorkflowProperties}.
 */
public class DurableWorkflowPayloadProperties {

	@NestedConfigurationProperty
	private final Encryption encryption = new Encryption();

	public Encryption getEncryption() {
		return this.encryption;
	}

	/**
	 * Encryption of payloads with AES-GCM
	 * ({@code dev.durable.workflow.payload.EncryptingPayloadConverter}): on when a key is
	 * set. Bound to {@code durable.workflow.payload.encryption.*}.
	 */
	public static class Encryption {

		/**
		 * Keys by id, each the base64 of 16, 24 or 32 random bytes (32 recommended). The
		 * id (lowercase letters, digits, '-' or '_'; not secret) is stored with every
		 * payload; keep a key as long as payloads it encrypted may be read.
		 */
		private final Map<String, String> keys = new LinkedHashMap<>();

		/**
		 * Id of the key that encrypts new payloads; one of the keys.
		 */
		private String currentKey;

		/**
		 * Whether payloads written before encryption was turned on (not encrypted) are
		 * refused instead of read.
		 */
		private boolean rejectUnencrypted;

		public Map<String, String> getKeys() {
			return this.keys;
		}

		public String getCurrentKey() {
			return this.currentKey;
		}

		public void setCurrentKey(String currentKey) {
			this.currentKey = currentKey;
		}

		public boolean isRejectUnencrypted() {
			return this.rejectUnencrypted;
		}

		public void setRejectUnencrypted(boolean rejectUnencrypted) {
			this.rejectUnencrypted = rejectUnencrypted;
		}

		/** Keys are secrets: never part of a string that may be logged. */
		@Override
		public String toString() {
			return "Encryption[keyIds=" + this.keys.keySet() + ", currentKey=" + this.currentKey + "]";
		}

	}

}
