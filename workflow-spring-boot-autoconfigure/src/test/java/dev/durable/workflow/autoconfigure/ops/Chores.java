package dev.durable.workflow.autoconfigure.ops;

import java.util.concurrent.atomic.AtomicInteger;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;

/** Activities of the quick workflow: one that works, one whose first attempt fails. */
@Activity
public class Chores {

	private final AtomicInteger flakyCalls = new AtomicInteger();

	public String tidy(String input) {
		return "tidy " + input;
	}

	@ActivityMethod(initialInterval = "PT0.05S", maxAttempts = 3)
	public String flaky(String input) {
		if (this.flakyCalls.incrementAndGet() == 1) {
			throw new IllegalStateException("first attempt fails");
		}
		return "flaky " + input;
	}

}
