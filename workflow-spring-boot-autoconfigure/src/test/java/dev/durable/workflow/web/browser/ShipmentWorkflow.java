package dev.durable.workflow.web.browser;

import java.time.Duration;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/** Reserves an item, waits up to a day for an approval, then ships it. */
@Workflow("shipment")
public class ShipmentWorkflow {

	private final Warehouse warehouse;

	private String state = "new";

	private String approver;

	private String note = "";

	public ShipmentWorkflow(Warehouse warehouse) {
		this.warehouse = warehouse;
	}

	/**
	 * A shipment.
	 *
	 * @param item what to ship
	 * @param customer to whom
	 */
	public record Shipment(String item, String customer) {
	}

	@WorkflowRun
	public String run(Shipment shipment) {
		String reservation = this.warehouse.reserve(shipment.item());
		this.state = "awaiting approval";
		if (!Workflows.await(Duration.ofDays(1), () -> this.approver != null)) {
			return "expired " + reservation;
		}
		this.state = "shipping";
		return this.warehouse.ship(shipment.item()) + " approved by " + this.approver + this.note;
	}

	@SignalMethod
	public void approve(String approver) {
		this.approver = approver;
	}

	@QueryMethod
	public String state() {
		return this.state;
	}

	@UpdateMethod
	public String addNote(String note) {
		this.note = " (" + note + ")";
		return "noted: " + note;
	}

}
