package dev.durable.workflow.web.app;

import java.util.ArrayList;
import java.util.List;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.UpdateValidator;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.failure.ApplicationFailure;

/** An order that collects notes until it is finished; its quantity can be updated. */
@Workflow("order")
public class OrderWorkflow {

	private final Pricing pricing;

	private final List<String> notes = new ArrayList<>();

	private int quantity;

	private boolean finished;

	public OrderWorkflow(Pricing pricing) {
		this.pricing = pricing;
	}

	/**
	 * An order.
	 *
	 * @param item what
	 * @param quantity how many
	 */
	public record Order(String item, int quantity) {
	}

	@WorkflowRun
	public String run(Order order) {
		this.quantity = order.quantity();
		if (order.item().equals("bomb")) {
			throw ApplicationFailure.newNonRetryableFailure("cannot ship a bomb", "Forbidden");
		}
		Workflows.await(() -> this.finished);
		return this.quantity + " x " + order.item() + " for " + this.pricing.price(order.item(), this.quantity)
				+ " notes " + this.notes;
	}

	@SignalMethod
	public void addNote(String note) {
		this.notes.add(note);
	}

	@SignalMethod
	public void finish() {
		this.finished = true;
	}

	@QueryMethod
	public List<String> notes() {
		return this.notes;
	}

	@QueryMethod
	public int quantity() {
		return this.quantity;
	}

	@QueryMethod
	public String broken() {
		throw new IllegalStateException("this query always fails");
	}

	@UpdateMethod
	public int setQuantity(int quantity) {
		this.quantity = quantity;
		return quantity;
	}

	@UpdateValidator(update = "setQuantity")
	public void validateSetQuantity(int quantity) {
		if (quantity <= 0) {
			throw new IllegalArgumentException("quantity must be positive, was " + quantity);
		}
	}

	@UpdateMethod
	public String explode(String why) {
		throw ApplicationFailure.newFailure("exploded: " + why, "Boom");
	}

}
