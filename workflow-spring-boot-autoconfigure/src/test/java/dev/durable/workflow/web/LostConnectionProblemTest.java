package dev.durable.workflow.web;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.TransactionSystemException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A connection lost inside a transaction surfaces as the rollback's failure, which hides
 * the statement's: it is still the database being unreachable (503, retry), not a defect
 * (500). Seen by the chaos harness during a database restart.
 */
class LostConnectionProblemTest {

	@Test
	void aRollbackThatFailedAfterALostConnectionIs503() {
		TransactionSystemException rollback = new TransactionSystemException("JDBC rollback failed",
				new SQLException("Connection is closed"));
		rollback
			.initApplicationException(new DataAccessResourceFailureException("I/O error while sending to the backend"));
		ResponseEntity<ProblemDetail> problem = DurableProblems.of(rollback);
		assertThat(problem.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
		assertThat(problem.getBody().getProperties()).containsEntry("code", "DATABASE_UNAVAILABLE");
	}

	@Test
	void aRollbackOnAClosedConnectionIs503EvenWithoutTheOriginalFailure() {
		assertThat(DurableProblems
			.of(new TransactionSystemException("JDBC rollback failed", new SQLException("Connection is closed")))
			.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
	}

	@Test
	void aCommitRefusedByTheDatabaseIsNotAnOutage() {
		TransactionSystemException commit = new TransactionSystemException("JDBC commit failed",
				new SQLException("could not serialize access", "40001"));
		assertThat(DurableProblems.of(commit).getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
		TransactionSystemException rollback = new TransactionSystemException("JDBC rollback failed",
				new SQLException("Connection is closed"));
		rollback.initApplicationException(new DuplicateKeyException("duplicate"));
		// the pool's closed connection still says the connection is gone, whatever came
		// first
		assertThat(DurableProblems.of(rollback).getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
	}

}
