package dev.durable.workflow.web.app;

import dev.durable.workflow.activity.Activity;

/** Prices orders. */
@Activity
public class Pricing {

	public int price(String item, int quantity) {
		return item.length() * quantity;
	}

}
