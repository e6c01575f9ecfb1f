package dev.durable.workflow.autoconfigure.quickstart;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.autoconfigure.SpringBootApplication;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.UpdateValidator;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;

/**
 * The README's quick-start application: the starter, one workflow, one activity, nothing
 * else.
 */
@SpringBootApplication
public class ShopApplication {

	/** Prices orders. */
	@Activity
	public static class Pricing {

		public int price(String item, int quantity) {
			return item.length() * quantity;
		}

	}

	/** An order that takes notes until it is finished. */
	@Workflow("order")
	public static class OrderWorkflow {

		/**
		 * An order.
		 *
		 * @param item what
		 * @param quantity how many
		 */
		public record Order(String item, int quantity) {
		}

		private final Pricing pricing;

		private final List<String> notes = new ArrayList<>();

		private int quantity;

		private boolean finished;

		public OrderWorkflow(Pricing pricing) {
			this.pricing = pricing;
		}

		@WorkflowRun
		public String run(Order order) {
			this.quantity = order.quantity();
			Workflows.await(() -> this.finished);
			return this.quantity + " x " + order.item() + " for " + this.pricing.price(order.item(), this.quantity);
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

		@UpdateMethod
		public int setQuantity(int quantity) {
			this.quantity = quantity;
			return quantity;
		}

		@UpdateValidator(update = "setQuantity")
		public void validateSetQuantity(int quantity) {
			if (quantity <= 0) {
				throw new IllegalArgumentException("positive, please");
			}
		}

	}

}
