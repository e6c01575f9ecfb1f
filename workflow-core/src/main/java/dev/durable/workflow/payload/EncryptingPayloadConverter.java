package dev.durable.workflow.payload;

import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.failure.PayloadUnreadableException;

/**
 * A {@link PayloadConverter} that encrypts the bytes of another converter (by default
 * {@link PayloadConverter#json()}) with AES-GCM, so that inputs, results, activity
 * arguments and results, signal, update and query payloads, side effect values, heartbeat
 * details and failure details are stored in the database only as ciphertext.
 *
 * <pre>{@code
 * PayloadConverter converter = EncryptingPayloadConverter.builder()
 *     .key("2026-06", keyBytes)        // 16, 24 or 32 bytes (AES-128/192/256; 32 recommended)
 *     .key("2025-12", previousKeyBytes) // kept to read what it encrypted
 *     .currentKey("2026-06")            // encrypts everything written from now on
 *     .build();
 * WorkflowEngine.builder().payloadConverter(converter)...
 * }</pre>
 *
 * <h2>Stored format (version 1)</h2> {@code 0xFF 'D' 'P' 'E'} (a magic prefix), one
 * format version byte ({@code 1}), one byte with the length of the key id, the key id
 * (UTF-8), a random 96-bit nonce, then the ciphertext with its 128-bit tag. The header
 * (magic, version, key id) is the associated data, so a changed key id or version fails
 * authentication instead of being tried with another key.
 *
 * <h2>Key rotation</h2> Each payload names the key it was encrypted with, and decryption
 * picks the key by that id. To rotate: add the new key, make it current, keep the old
 * keys for reading. Payloads written under an old key stay as they are (they are not
 * re-encrypted); drop an old key only when no run that may still read its payloads is
 * kept (open runs, and closed runs within the retention). A payload whose key is not
 * configured fails with a {@link PayloadException} naming the key id (never the key).
 *
 * <h2>Payloads written before encryption</h2> Payloads without the magic prefix are
 * handed to the wrapped converter as they are, so runs started before encryption was
 * turned on continue. The prefix cannot begin a payload of the JSON converter (a UTF-8
 * text never contains the byte {@code 0xFF}). Call
 * {@link Builder#rejectUnencrypted(boolean) rejectUnencrypted(true)} once no such run is
 * left, to refuse them.
 *
 * <p>
 * A {@code null} value stays a {@code null} payload (not encrypted). Each encryption uses
 * a new random nonce: rotate a key before it encrypted about 2<sup>32</sup> payloads.
 * Thread-safe.
 */
public final class EncryptingPayloadConverter implements PayloadConverter {

	/** The first bytes of every encrypted payload. */
	private static final byte[] MAGIC = { (byte) 0xFF, 'D', 'P', 'E' };

	private static final byte VERSION = 1;

	private static final int NONCE_BYTES = 12;

	private static final int TAG_BITS = 128;

	private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

	private static final SecureRandom RANDOM = new SecureRandom();

	private final PayloadConverter delegate;

	private final Map<String, SecretKey> keys;

	private final String currentKeyId;

	private final byte[] currentHeader;

	private final boolean rejectUnencrypted;

	private EncryptingPayloadConverter(Builder builder) {
		this.delegate = builder.delegate;
		this.keys = Map.copyOf(builder.keys);
		this.currentKeyId = Objects.requireNonNull(builder.currentKeyId, "currentKey(id) is required");
		if (!this.keys.containsKey(this.currentKeyId)) {
			throw new IllegalArgumentException(
					"The current key id '" + this.currentKeyId + "' has no key; known ids: " + builder.keys.keySet());
		}
		this.currentHeader = header(this.currentKeyId);
		this.rejectUnencrypted = builder.rejectUnencrypted;
	}

	/** A builder; at least one key and the current key id are required. */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * The id of the key a payload was encrypted with, or {@code null} when the payload is
	 * not encrypted (no magic prefix). Reads the header only; does not check the payload.
	 * @throws PayloadException when the payload has the prefix but a malformed header
	 */
	public static @Nullable String keyId(byte @Nullable [] payload) {
		if (!isEncrypted(payload)) {
			return null;
		}
		return parse(payload).keyId;
	}

	/** Whether the payload starts with the magic prefix of an encrypted payload. */
	public static boolean isEncrypted(byte @Nullable [] payload) {
		if (payload == null || payload.length < MAGIC.length) {
			return false;
		}
		for (int i = 0; i < MAGIC.length; i++) {
			if (payload[i] != MAGIC[i]) {
				return false;
			}
		}
		return true;
	}

	/** The converter whose bytes this one encrypts. */
	public PayloadConverter delegate() {
		return this.delegate;
	}

	/** The id of the key new payloads are encrypted with. */
	public String currentKeyId() {
		return this.currentKeyId;
	}

	@Override
	public byte @Nullable [] toPayload(@Nullable Object value, Type type) {
		return encrypt(this.delegate.toPayload(value, type));
	}

	@Override
	public @Nullable Object fromPayload(byte @Nullable [] payload, Type type) {
		return this.delegate.fromPayload(decrypt(payload), type);
	}

	/**
	 * Encrypts bytes of the wrapped converter with the current key.
	 * @return the encrypted payload, {@code null} for {@code null}
	 */
	public byte @Nullable [] encrypt(byte @Nullable [] plain) {
		if (plain == null) {
			return null;
		}
		byte[] nonce = new byte[NONCE_BYTES];
		RANDOM.nextBytes(nonce);
		byte[] header = this.currentHeader;
		try {
			Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
			cipher.init(Cipher.ENCRYPT_MODE, this.keys.get(this.currentKeyId), new GCMParameterSpec(TAG_BITS, nonce));
			cipher.updateAAD(header);
			byte[] out = new byte[header.length + NONCE_BYTES + cipher.getOutputSize(plain.length)];
			System.arraycopy(header, 0, out, 0, header.length);
			System.arraycopy(nonce, 0, out, header.length, NONCE_BYTES);
			cipher.doFinal(plain, 0, plain.length, out, header.length + NONCE_BYTES);
			return out;
		}
		catch (GeneralSecurityException ex) {
			throw new PayloadException("Cannot encrypt a payload with key id '" + this.currentKeyId + "': "
					+ ex.getClass().getSimpleName(), false, null);
		}
	}

	/**
	 * Decrypts a payload into the bytes of the wrapped converter; a payload without the
	 * magic prefix (written before encryption) is returned as it is unless unencrypted
	 * payloads are rejected.
	 * @return the wrapped converter's bytes, {@code null} for {@code null}
	 * @throws PayloadUnreadableException when the key id is unknown, the payload was
	 * altered or does not decrypt with that key, or it is unencrypted and those are
	 * rejected
	 */
	public byte @Nullable [] decrypt(byte @Nullable [] payload) {
		if (payload == null) {
			return null;
		}
		if (!isEncrypted(payload)) {
			if (this.rejectUnencrypted) {
				throw new PayloadUnreadableException(
						"The payload is not encrypted, and unencrypted payloads are rejected" + " (rejectUnencrypted)",
						null);
			}
			return payload;
		}
		Header header = parse(payload);
		SecretKey key = this.keys.get(header.keyId);
		if (key == null) {
			throw new PayloadUnreadableException(
					"The payload is encrypted with unknown key id '" + header.keyId + "' (this converter has "
							+ this.keys.keySet().stream().sorted().toList() + "); add that key to read it",
					null);
		}
		try {
			Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
			cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, payload, header.length, NONCE_BYTES));
			cipher.updateAAD(payload, 0, header.length);
			int offset = header.length + NONCE_BYTES;
			return cipher.doFinal(payload, offset, payload.length - offset);
		}
		catch (AEADBadTagException ex) {
			throw new PayloadUnreadableException("The payload encrypted with key id '" + header.keyId
					+ "' does not authenticate: it was altered, or key '" + header.keyId
					+ "' is not the key it was written with", null);
		}
		catch (GeneralSecurityException ex) {
			throw new PayloadUnreadableException(
					"Cannot decrypt a payload with key id '" + header.keyId + "': " + ex.getClass().getSimpleName(),
					null);
		}
	}

	private static byte[] header(String keyId) {
		byte[] id = keyId.getBytes(StandardCharsets.UTF_8);
		return ByteBuffer.allocate(MAGIC.length + 2 + id.length)
			.put(MAGIC)
			.put(VERSION)
			.put((byte) id.length)
			.put(id)
			.array();
	}

	private static Header parse(byte[] payload) {
		int at = MAGIC.length;
		if (payload.length < at + 2) {
			throw new PayloadUnreadableException("The encrypted payload is truncated", null);
		}
		int version = payload[at] & 0xFF;
		if (version != VERSION) {
			throw new PayloadUnreadableException("The payload is encrypted in format version " + version
					+ ", which this converter does not read (it reads version " + VERSION + ")", null);
		}
		int idLength = payload[at + 1] & 0xFF;
		int length = at + 2 + idLength;
		if (idLength == 0 || payload.length < length + NONCE_BYTES + TAG_BITS / 8) {
			throw new PayloadUnreadableException("The encrypted payload is truncated", null);
		}
		return new Header(new String(payload, at + 2, idLength, StandardCharsets.UTF_8), length);
	}

	private record Header(String keyId, int length) {
	}

	/** Builds an {@link EncryptingPayloadConverter}. */
	public static final class Builder {

		private PayloadConverter delegate = PayloadConverter.json();

		private final Map<String, SecretKey> keys = new LinkedHashMap<>();

		private @Nullable String currentKeyId;

		private boolean rejectUnencrypted;

		private Builder() {
		}

		/**
		 * Adds a key.
		 * @param id the key id stored with each payload: 1 to 64 characters of
		 * {@code A-Z a-z 0-9 . _ -}; not secret
		 * @param key the AES key: 16, 24 or 32 bytes (32, AES-256, recommended)
		 */
		public Builder key(String id, byte[] key) {
			if (id == null || !KEY_ID.matcher(id).matches()) {
				throw new IllegalArgumentException(
						"A key id is 1 to 64 characters of A-Z a-z 0-9 . _ - (got '" + id + "')");
			}
			if (key == null || (key.length != 16 && key.length != 24 && key.length != 32)) {
				throw new IllegalArgumentException("Key '" + id + "' must be 16, 24 or 32 bytes (AES-128/192/256), not "
						+ ((key != null) ? key.length : 0) + " bytes");
			}
			this.keys.put(id, new SecretKeySpec(key.clone(), "AES"));
			return this;
		}

		/**
		 * Adds every key of the map (key id to key bytes); see
		 * {@link #key(String, byte[])}.
		 */
		public Builder keys(Map<String, byte[]> keys) {
			keys.forEach(this::key);
			return this;
		}

		/**
		 * The id of the key that encrypts new payloads; it must be one of the added keys.
		 */
		public Builder currentKey(String id) {
			this.currentKeyId = id;
			return this;
		}

		/**
		 * The converter whose bytes are encrypted; {@link PayloadConverter#json()} by
		 * default.
		 */
		public Builder delegate(PayloadConverter delegate) {
			this.delegate = Objects.requireNonNull(delegate, "delegate");
			return this;
		}

		/**
		 * Whether payloads without the magic prefix (written before encryption was turned
		 * on) are refused instead of read as the wrapped converter's bytes; {@code false}
		 * by default.
		 */
		public Builder rejectUnencrypted(boolean reject) {
			this.rejectUnencrypted = reject;
			return this;
		}

		/**
		 * The converter.
		 * @throws IllegalArgumentException when the current key id has no key
		 * @throws NullPointerException when no current key id was given
		 */
		public EncryptingPayloadConverter build() {
			return new EncryptingPayloadConverter(this);
		}

	}

}
