package dev.durable.workflow.autoconfigure.openapi.claims;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.Signal;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/** An insurance claim that collects evidence until someone decides it. */
@Workflow("claim")
public class ClaimWorkflow {

	/**
	 * A claim.
	 *
	 * @param policy the policy number
	 * @param amount what is claimed
	 * @param documents the documents filed with it
	 */
	public record Claim(String policy, BigDecimal amount, List<String> documents) {
	}

	/**
	 * A piece of evidence.
	 *
	 * @param kind photo, invoice...
	 * @param url where it is
	 */
	public record Evidence(String kind, String url) {
	}

	/**
	 * The decision on a claim.
	 *
	 * @param approved whether it is paid
	 * @param reason why
	 */
	public record Decision(boolean approved, String reason) {
	}

	/** Where a claim is. */
	public enum Stage {

		OPEN, DECIDED

	}

	/**
	 * An appeal, received by {@code Workflows.receive} after a decision (declared, so a
	 * client may send it).
	 */
	public static final Signal<Evidence> APPEAL = Signal.of("appeal", Evidence.class);

	private final List<Evidence> evidence = new ArrayList<>();

	private final List<String> comments = new ArrayList<>();

	private Decision decision;

	@WorkflowRun
	public Decision run(Claim claim) {
		Workflows.await(() -> this.decision != null);
		return this.decision;
	}

	@SignalMethod
	public void addEvidence(Evidence evidence) {
		this.evidence.add(evidence);
	}

	@SignalMethod
	public void comment(String text) {
		this.comments.add(text);
	}

	@QueryMethod
	public Stage stage() {
		return (this.decision != null) ? Stage.DECIDED : Stage.OPEN;
	}

	@UpdateMethod
	public Decision decide(Decision decision) {
		this.decision = decision;
		return decision;
	}

}
