package dev.durable.workflow.web.app;

import dev.durable.workflow.Signal;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/**
 * An expense that waits for a comment (declared by the annotation) and a typed decision
 * (declared by a {@link Signal} field); no signal handler, so every other name is
 * refused.
 */
@Workflow(value = "expense", receives = "comment")
public class ExpenseWorkflow {

	/**
	 * An approver's answer.
	 *
	 * @param approved whether it is approved
	 * @param by who decided
	 */
	public record Decision(boolean approved, String by) {
	}

	public static final Signal<Decision> DECISION = Signal.of("decision", Decision.class);

	@WorkflowRun
	public String run(String expense) {
		String comment = Workflows.receive("comment", String.class);
		Decision decision = Workflows.receive(DECISION);
		return expense + ": " + comment + ", " + (decision.approved() ? "approved" : "rejected") + " by "
				+ decision.by();
	}

}
