package dev.durable.docs.activities;

import java.util.List;

import dev.durable.workflow.activity.Activity;

/** The local activities of {@link QuoteWorkflow}. */
@Activity
public class Pricing {

	public Customer customer(String customerId) {
		return new Customer(customerId, customerId.startsWith("vip-") ? 10 : 0);
	}

	public Price basePrice(List<String> items) {
		return new Price(100L * items.size());
	}

	public Quote quote(Customer customer, Price base) {
		return new Quote(customer.id(), base.amount() * (100 - customer.discountPercent()) / 100);
	}

}
