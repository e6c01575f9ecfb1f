package dev.durable.workflow.internal.support;

import java.sql.SQLTransientConnectionException;

/**
 * The engine takes no database connection: its node is fenced (its heartbeat got no
 * answer for its lease). Of SQL state class 08, which callers already read as the
 * database being unreachable.
 */
public final class NodeFencedException extends SQLTransientConnectionException {

	private static final long serialVersionUID = 1L;

	public NodeFencedException(String reason) {
		super(reason, "08001");
	}

}
