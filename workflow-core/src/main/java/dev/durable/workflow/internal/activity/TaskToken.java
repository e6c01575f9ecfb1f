package dev.durable.workflow.internal.activity;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.UUID;

/**
 * The task token of an activity attempt: the run, the activity's sequence number and the
 * attempt's random token (the {@code token} column of its row), as 40 bytes in URL-safe
 * base64. Opaque to callers; a token whose attempt is over names nothing.
 *
 * @param runId the run
 * @param seq the activity's sequence number
 * @param attempt the attempt's token
 */
public record TaskToken(UUID runId, long seq, UUID attempt) {

	private static final int LENGTH = 40;

	public String encode() {
		ByteBuffer buffer = ByteBuffer.allocate(LENGTH);
		buffer.putLong(this.runId.getMostSignificantBits()).putLong(this.runId.getLeastSignificantBits());
		buffer.putLong(this.seq);
		buffer.putLong(this.attempt.getMostSignificantBits()).putLong(this.attempt.getLeastSignificantBits());
		return Base64.getUrlEncoder().withoutPadding().encodeToString(buffer.array());
	}

	/**
	 * @throws IllegalArgumentException when the text is not a task token
	 */
	public static TaskToken decode(String text) {
		byte[] bytes;
		try {
			bytes = Base64.getUrlDecoder().decode((text != null) ? text.trim() : "");
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Not an activity task token");
		}
		if (bytes.length != LENGTH) {
			throw new IllegalArgumentException("Not an activity task token");
		}
		ByteBuffer buffer = ByteBuffer.wrap(bytes);
		UUID run = new UUID(buffer.getLong(), buffer.getLong());
		long seq = buffer.getLong();
		UUID attempt = new UUID(buffer.getLong(), buffer.getLong());
		return new TaskToken(run, seq, attempt);
	}

}
