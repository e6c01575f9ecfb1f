package dev.durable.sample.approval;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The sample approval application (document approval with SLA timers, reminders and
 * escalation; its workflow comes later). With no {@code spring.datasource.url} it runs on an
 * embedded PostgreSQL server whose data is kept in {@code .durable/pgdata}.
 */
@SpringBootApplication
public class ApprovalApplication {

	public static void main(String[] args) {
		SpringApplication.run(ApprovalApplication.class, args);
	}

}
