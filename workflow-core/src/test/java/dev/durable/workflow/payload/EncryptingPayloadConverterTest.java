package dev.durable.workflow.payload;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.failure.PayloadException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The stored format of {@link EncryptingPayloadConverter}: header, nonce, authentication,
 * keys.
 */
class EncryptingPayloadConverterTest {

	private static final byte[] K1 = key(1);

	private static final byte[] K2 = key(2);

	public record Item(String name, int count) {
	}

	@Test
	void roundTripsThroughTheWrappedConverter() {
		EncryptingPayloadConverter converter = EncryptingPayloadConverter.builder()
			.key("k1", K1)
			.currentKey("k1")
			.build();
		byte[] payload = converter.toPayload(new Item("bolts", 3), Item.class);
		assertThat(new String(payload, StandardCharsets.ISO_8859_1)).doesNotContain("bolts");
		assertThat(EncryptingPayloadConverter.isEncrypted(payload)).isTrue();
		assertThat(EncryptingPayloadConverter.keyId(payload)).isEqualTo("k1");
		assertThat(converter.fromPayload(payload, Item.class)).isEqualTo(new Item("bolts", 3));
		assertThat(converter.decrypt(payload))
			.isEqualTo(PayloadConverter.json().toPayload(new Item("bolts", 3), Item.class));
		assertThat(converter.toPayload(null, Item.class)).isNull();
		assertThat(converter.fromPayload(null, Item.class)).isNull();
	}

	@Test
	void eachPayloadHasItsOwnNonce() {
		EncryptingPayloadConverter converter = EncryptingPayloadConverter.builder()
			.key("k1", K1)
			.currentKey("k1")
			.build();
		byte[] first = converter.toPayload("same", String.class);
		byte[] second = converter.toPayload("same", String.class);
		assertThat(first).isNotEqualTo(second);
		// magic 4 + version 1 + id length 1 + "k1" + nonce 12 + "\"same\"" 6 + tag 16
		assertThat(first).hasSize(4 + 1 + 1 + 2 + 12 + 6 + 16);
	}

	@Test
	void rotationReadsOldKeysAndWritesWithTheCurrentOne() {
		EncryptingPayloadConverter old = EncryptingPayloadConverter.builder().key("k1", K1).currentKey("k1").build();
		byte[] written = old.toPayload("before", String.class);
		EncryptingPayloadConverter rotated = EncryptingPayloadConverter.builder()
			.keys(Map.of("k1", K1, "k2", K2))
			.currentKey("k2")
			.build();
		assertThat(rotated.fromPayload(written, String.class)).isEqualTo("before");
		assertThat(EncryptingPayloadConverter.keyId(rotated.toPayload("after", String.class))).isEqualTo("k2");
	}

	@Test
	void anUnknownKeyIdFailsNamingTheIdNeverTheKey() {
		byte[] written = EncryptingPayloadConverter.builder()
			.key("k1", K1)
			.currentKey("k1")
			.build()
			.toPayload("secret", String.class);
		EncryptingPayloadConverter other = EncryptingPayloadConverter.builder().key("k2", K2).currentKey("k2").build();
		assertThatThrownBy(() -> other.fromPayload(written, String.class)).isInstanceOf(PayloadException.class)
			.hasMessageContaining("unknown key id 'k1'")
			.hasMessageContaining("[k2]")
			.message()
			.doesNotContain(Base64.getEncoder().encodeToString(K1))
			.doesNotContain(Base64.getEncoder().encodeToString(K2));
	}

	@Test
	void alteredPayloadsAndSwappedKeysFailAuthentication() {
		EncryptingPayloadConverter converter = EncryptingPayloadConverter.builder()
			.key("k1", K1)
			.currentKey("k1")
			.build();
		byte[] payload = converter.toPayload("amount 100", String.class);
		byte[] flipped = payload.clone();
		flipped[flipped.length - 20] ^= 1;
		assertThatThrownBy(() -> converter.fromPayload(flipped, String.class)).isInstanceOf(PayloadException.class)
			.hasMessageContaining("does not authenticate");
		// the header is associated data: another key id with the same key bytes does not
		// decrypt
		EncryptingPayloadConverter twin = EncryptingPayloadConverter.builder()
			.keys(Map.of("k1", K1, "k9", K1))
			.currentKey("k9")
			.build();
		byte[] relabelled = payload.clone();
		relabelled[7] = '9';
		assertThatThrownBy(() -> twin.fromPayload(relabelled, String.class))
			.hasMessageContaining("does not authenticate");
		// the same id with other key bytes
		EncryptingPayloadConverter wrong = EncryptingPayloadConverter.builder().key("k1", K2).currentKey("k1").build();
		assertThatThrownBy(() -> wrong.fromPayload(payload, String.class))
			.hasMessageContaining("does not authenticate");
		assertThatThrownBy(() -> converter.fromPayload(Arrays.copyOf(payload, 10), String.class))
			.hasMessageContaining("truncated");
		byte[] future = payload.clone();
		future[4] = 2;
		assertThatThrownBy(() -> converter.fromPayload(future, String.class)).hasMessageContaining("format version 2");
	}

	@Test
	void unencryptedPayloadsAreReadUnlessRejected() {
		byte[] plain = PayloadConverter.json().toPayload(List.of("a", "b"), Object.class);
		assertThat(EncryptingPayloadConverter.isEncrypted(plain)).isFalse();
		assertThat(EncryptingPayloadConverter.keyId(plain)).isNull();
		assertThat(EncryptingPayloadConverter.builder()
			.key("k1", K1)
			.currentKey("k1")
			.build()
			.fromPayload(plain, Object.class)).isEqualTo(List.of("a", "b"));
		EncryptingPayloadConverter strict = EncryptingPayloadConverter.builder()
			.key("k1", K1)
			.currentKey("k1")
			.rejectUnencrypted(true)
			.build();
		assertThatThrownBy(() -> strict.fromPayload(plain, Object.class)).isInstanceOf(PayloadException.class)
			.hasMessageContaining("not encrypted");
	}

	@Test
	void badKeysAndIdsAreRefusedWhenBuilding() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EncryptingPayloadConverter.builder().key("k1", new byte[15]))
			.withMessageContaining("16, 24 or 32 bytes");
		assertThatIllegalArgumentException().isThrownBy(() -> EncryptingPayloadConverter.builder().key("k 1", K1))
			.withMessageContaining("key id");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EncryptingPayloadConverter.builder().key("k1", K1).currentKey("k2").build())
			.withMessageContaining("'k2' has no key");
		assertThatThrownBy(() -> EncryptingPayloadConverter.builder().key("k1", K1).build())
			.isInstanceOf(NullPointerException.class);
		// AES-128 and AES-192 keys work too
		EncryptingPayloadConverter short16 = EncryptingPayloadConverter.builder()
			.key("s", new byte[16])
			.currentKey("s")
			.build();
		assertThat(short16.fromPayload(short16.toPayload("x", String.class), String.class)).isEqualTo("x");
	}

	private static byte[] key(int seed) {
		byte[] key = new byte[32];
		Arrays.fill(key, (byte) seed);
		return key;
	}

}
