package dev.durable.workflow.failure;

import org.jspecify.annotations.Nullable;

/**
 * A stored payload this node cannot read: it is encrypted under a key id the node does
 * not have, its bytes were altered, or it is unencrypted while those are rejected. Unlike
 * its parent, it never means the caller's input was wrong: the node's configuration (its
 * keys) or the stored data is at fault, and the payload becomes readable again on a node
 * that has the key.
 */
public class PayloadUnreadableException extends PayloadException {

	/**
	 * @param message what cannot be read and why (key ids, never key material)
	 * @param cause the underlying failure, or {@code null}
	 */
	public PayloadUnreadableException(String message, @Nullable Throwable cause) {
		super(message, false, cause);
	}

}
