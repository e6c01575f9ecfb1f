package dev.durable.sample.loan;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The sample loan application: a home-loan workflow ({@link HomeLoanWorkflow}) run by the
 * durable workflow engine, and a small REST API to try it ({@link LoanController}). With no
 * {@code spring.datasource.url} it runs on an embedded PostgreSQL server whose data is kept in
 * {@code .durable/pgdata}, so loans in flight survive a restart.
 */
@SpringBootApplication
public class LoanApplication {

	public static void main(String[] args) {
		SpringApplication.run(LoanApplication.class, args);
	}

}
