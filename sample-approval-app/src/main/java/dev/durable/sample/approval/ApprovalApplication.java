package dev.durable.sample.approval;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The sample approval application: document approval with SLA timers, reminders,
 * escalation and resubmission ({@link ApprovalWorkflow}), driven over HTTP
 * ({@link DocumentController}), with its rules in {@code application.yaml}
 * ({@link ApprovalProperties}). With no {@code spring.datasource.url} it runs on an
 * embedded PostgreSQL server whose data is kept in {@code .durable/pgdata}.
 */
@SpringBootApplication
@EnableConfigurationProperties(ApprovalProperties.class)
public class ApprovalApplication {

	public static void main(String[] args) {
		SpringApplication.run(ApprovalApplication.class, args);
	}

}
