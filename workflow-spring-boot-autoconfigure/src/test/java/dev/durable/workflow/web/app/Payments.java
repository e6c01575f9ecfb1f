package dev.durable.workflow.web.app;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityMethod;

/**
 * A payment gateway that answers later: the charge hands its task token to the gateway
 * (here, a map the tests read) and returns without completing the attempt; the gateway's
 * callback finishes it over REST.
 */
@Activity
public class Payments {

	private final Map<String, String> tokens = new ConcurrentHashMap<>();

	@ActivityMethod(startToCloseTimeout = "PT5M", maxAttempts = 2, initialInterval = "PT0.1S")
	public @Nullable String charge(String order) {
		ActivityContext context = ActivityContext.current();
		context.doNotCompleteOnReturn();
		this.tokens.put(order + "#" + context.info().attempt(), context.taskToken());
		return null;
	}

	/**
	 * The task token of an attempt that was handed to the gateway, or {@code null} when
	 * none is yet.
	 */
	public @Nullable String token(String order, int attempt) {
		return this.tokens.get(order + "#" + attempt);
	}

}
