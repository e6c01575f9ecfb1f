package dev.durable.sample.loan;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The sample home-loan application: a workflow ({@link HomeLoanWorkflow}) that pauses for
 * a human fix when a step fails for good, run by the durable workflow engine, and a small
 * REST API ({@link LoanController}). With no {@code spring.datasource.url} it runs on an
 * embedded PostgreSQL server whose data is kept in {@code .durable/pgdata}, so loans in
 * flight survive a restart.
 */
@SpringBootApplication
@EnableConfigurationProperties(LoanProperties.class)
public class LoanSampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(LoanSampleApplication.class, args);
	}

}
