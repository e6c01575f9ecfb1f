package dev.durable.benchmarks.compare;

/** The scenarios' workflows for DBOS Transact: the interface its proxy implements. */
public interface DbosBench {

	/** Runs {@code count} no-op steps one after another. */
	int steps(int count);

	/** Waits for a message on the topic {@code go} and returns it. */
	String waitForSignal();

}
