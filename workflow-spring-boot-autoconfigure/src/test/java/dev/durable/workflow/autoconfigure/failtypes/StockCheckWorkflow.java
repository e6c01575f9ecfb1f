package dev.durable.workflow.autoconfigure.failtypes;

import java.util.NoSuchElementException;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** Throws NoSuchElementException, which fails the run only when the engine lists it. */
@Workflow("stock-check")
public class StockCheckWorkflow {

	@WorkflowRun
	public String run(String item) {
		throw new NoSuchElementException("no stock of " + item);
	}

}
