package dev.durable.workflow.autoconfigure.tracing;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.MDC;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

/**
 * A web application whose activity records the logging context it runs in; a filter puts
 * the caller's tenant (header {@code X-Tenant}) in the MDC of the request, as
 * applications do.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class TracingApplication {

	/** The MDC of each activity attempt: traceId, spanId, tenant. */
	public static final List<Map<String, String>> SEEN = new CopyOnWriteArrayList<>();

	@Bean
	DataSource dataSource() {
		return EmbeddedPostgresSupport.newPooledDataSource();
	}

	/**
	 * The generated endpoints open to anyone: what this test looks at is the trace, not
	 * access.
	 */
	@Bean
	SecurityFilterChain openChain(HttpSecurity http) throws Exception {
		return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

	@Bean
	Filter tenantFilter() {
		return (request, response, chain) -> {
			String tenant = ((HttpServletRequest) request).getHeader("X-Tenant");
			if (tenant != null) {
				MDC.put("tenant", tenant);
			}
			try {
				chain.doFilter(request, response);
			}
			finally {
				MDC.remove("tenant");
			}
		};
	}

	@Bean
	Ledger ledger() {
		return new Ledger();
	}

	@Activity
	public static class Ledger {

		public String book(String entry) {
			SEEN.add(Map.of("traceId", String.valueOf(MDC.get("traceId")), "spanId", String.valueOf(MDC.get("spanId")),
					"tenant", String.valueOf(MDC.get("tenant")), "entry", entry));
			return "booked " + entry;
		}

	}

	@Workflow("booking")
	public static class BookingWorkflow {

		private final Ledger ledger;

		public BookingWorkflow(Ledger ledger) {
			this.ledger = ledger;
		}

		@WorkflowRun
		public String run(String entry) {
			String first = this.ledger.book(entry);
			Workflows.sleep(java.time.Duration.ofMillis(10));
			return first + ", " + this.ledger.book(entry + "-again");
		}

	}

}
