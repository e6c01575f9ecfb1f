package dev.durable.chaos;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The database the nodes share: the harness's own server, which it can restart, or one
 * given by URL ({@code --databaseUrl}), where the database restarts are skipped (the
 * other faults need only the right to terminate the nodes' backends).
 */
interface ChaosDatabase extends AutoCloseable {

	String url();

	String user();

	String password();

	default Connection connect() throws SQLException {
		return DriverManager.getConnection(url(), user(), password());
	}

	/** Whether {@link #restart} works. */
	boolean canRestart();

	/** Stops the server ({@code fast} or {@code immediate}) and starts it again. */
	void restart(String mode) throws IOException;

	/** The end of the server's log, for a failed run's report. */
	String logTail(int lines);

	@Override
	void close();

	/** A database the harness does not control. */
	record External(String url, String user, String password) implements ChaosDatabase {

		@Override
		public boolean canRestart() {
			return false;
		}

		@Override
		public void restart(String mode) {
			throw new UnsupportedOperationException("The harness cannot restart a database given by URL");
		}

		@Override
		public String logTail(int lines) {
			return "(a database given by URL: its log is where its server keeps it)";
		}

		@Override
		public void close() {
		}

	}

}
