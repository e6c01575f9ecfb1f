package dev.durable.workflow;

import dev.durable.workflow.failure.PayloadException;

/**
 * A stream of values a workflow writes for clients to read in order, from any offset,
 * while it is written ({@code WorkflowHandle.readStream}, or Server-Sent Events over
 * REST). Obtained from {@link Workflows#stream(String)}; valid only on the workflow's own
 * threads.
 *
 * <p>
 * Each write is recorded in the run's history as a command and stored when the workflow
 * task commits, at the next offset (0, 1, 2, ...): a replay or a retried task writes
 * nothing twice. Readers see a value once its task has committed.
 */
public interface WorkflowStream {

	/** The stream's key. */
	String key();

	/**
	 * Appends a value at the next offset.
	 * @param value the value (not {@code null}), serialized by the payload converter
	 * @return the value's offset
	 * @throws IllegalStateException when the stream is closed
	 * @throws PayloadException when the value cannot be serialized or is over the payload
	 * size limit
	 */
	long write(Object value);

	/**
	 * Ends the stream: readers stop after its last value. Closing a closed stream does
	 * nothing. A stream not closed ends when the run closes.
	 */
	void close();

	/** Whether {@link #close()} was called. */
	boolean isClosed();

	/** The offset the next write gets (the number of values written). */
	long nextOffset();

}
