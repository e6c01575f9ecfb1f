package dev.durable.workflow.web.browser;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.failure.ApplicationFailure;

/** The activities of the dashboard's test workflows. */
@Activity
public class Warehouse {

	public String reserve(String item) {
		return "reservation-" + item;
	}

	public String ship(String item) {
		return "parcel-" + item;
	}

	public String charge(String customer, int amount) {
		if (amount > 1000) {
			throw ApplicationFailure.newNonRetryableFailure("card of " + customer + " declined for " + amount,
					"CardDeclined");
		}
		return "charged " + amount;
	}

	/** Always fails: its run keeps a pending activity with a growing attempt count. */
	public void syncLedger(String account) {
		throw new IllegalStateException("ledger service unavailable for " + account);
	}

}
