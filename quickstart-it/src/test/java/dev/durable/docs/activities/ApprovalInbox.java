package dev.durable.docs.activities;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Where the guide's asynchronous activity hands its task token to: reviewers' inbox. */
public class ApprovalInbox {

	private final Map<String, String> tokens = new ConcurrentHashMap<>();

	public void send(String orderId, String taskToken) {
		this.tokens.put(orderId, taskToken);
	}

	public String token(String orderId) {
		return this.tokens.get(orderId);
	}

}
