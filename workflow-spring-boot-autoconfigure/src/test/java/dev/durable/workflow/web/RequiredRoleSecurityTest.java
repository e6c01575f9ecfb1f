package dev.durable.workflow.web;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import jakarta.servlet.Filter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import dev.durable.workflow.web.app.WebTestApplication;

import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * With Spring Security and {@code durable.workflow.web.required-role}, the operations
 * answer to callers with the role only: 401 for an anonymous caller, 403
 * {@code ROLE_REQUIRED} for one without it. The filter chain here lets every request
 * through, so the role check is the module's own; reads and starts stay open, and the
 * dashboard shows its actions to the role only.
 */
@SpringBootTest(classes = { WebTestApplication.class, RequiredRoleSecurityTest.Security.class },
		properties = { "durable.workflow.schema=web_role", "durable.workflow.embedded-postgres.enabled=false",
				"durable.workflow.worker.poll-interval=100ms", "durable.workflow.web.required-role=DURABLE_OPERATOR" })
class RequiredRoleSecurityTest {

	private static final String ORDER = "{\"item\":\"tea\",\"quantity\":2}";

	@Autowired
	private WebApplicationContext context;

	private MockMvc mvc;

	/**
	 * Basic authentication where given, anonymous access allowed everywhere; two users.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Security {

		@Bean
		SecurityFilterChain apiSecurity(HttpSecurity http) throws Exception {
			return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.disable())
				.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("viewer").password("{noop}secret").roles("VIEWER").build(),
					User.withUsername("operator").password("{noop}secret").roles("DURABLE_OPERATOR").build());
		}

	}

	@BeforeEach
	void mvc() {
		this.mvc = MockMvcBuilders.webAppContextSetup(this.context)
			.addFilters(this.context.getBean("springSecurityFilterChain", Filter.class))
			.build();
	}

	private static MockHttpServletRequestBuilder as(String user, MockHttpServletRequestBuilder request) {
		return request.header("Authorization",
				"Basic " + Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8)));
	}

	private static MockHttpServletRequestBuilder signal(String workflowId) {
		return post("/durable/workflows/" + workflowId + "/signals/addNote").contentType(MediaType.APPLICATION_JSON)
			.content("\"fragile\"");
	}

	@Test
	void readsAndStartsAreOpenAndOperationsNeedTheRole() throws Exception {
		this.mvc
			.perform(post("/durable/workflows").contentType(MediaType.APPLICATION_JSON)
				.content("{\"type\":\"order\",\"workflowId\":\"role-1\",\"input\":" + ORDER + "}"))
			.andExpect(status().isCreated());
		this.mvc.perform(get("/durable/workflows/role-1")).andExpect(status().isOk());

		this.mvc.perform(signal("role-1"))
			.andExpect(status().isUnauthorized())
			.andExpect(header().string("Content-Type", "application/problem+json"))
			.andExpect(jsonPath("$.code").value("UNAUTHENTICATED"));
		this.mvc.perform(as("viewer", signal("role-1")))
			.andExpect(status().isForbidden())
			.andExpect(jsonPath("$.code").value("ROLE_REQUIRED"))
			.andExpect(jsonPath("$.detail").value(containsString("durable.workflow.web.required-role")));
		this.mvc.perform(as("viewer", post("/durable/workflows/role-1/terminate")))
			.andExpect(status().isForbidden())
			.andExpect(jsonPath("$.code").value("ROLE_REQUIRED"));
		this.mvc.perform(get("/durable/workflows/role-1")).andExpect(jsonPath("$.status").value("RUNNING"));

		this.mvc.perform(as("operator", signal("role-1"))).andExpect(status().isAccepted());
		this.mvc.perform(as("operator", post("/durable/workflows/role-1/terminate"))).andExpect(status().isNoContent());
		this.mvc.perform(get("/durable/workflows/role-1")).andExpect(jsonPath("$.status").value("TERMINATED"));
	}

	@Test
	void batchesNeedTheRoleAndAreReadByAnyone() throws Exception {
		String batch = "{\"batchId\":\"role-batch\",\"operation\":\"TERMINATE\",\"filter\":{\"workflowIdPrefix\":"
				+ "\"role-none-\"}}";
		this.mvc.perform(post("/durable/batches").contentType(MediaType.APPLICATION_JSON).content(batch))
			.andExpect(status().isUnauthorized())
			.andExpect(jsonPath("$.code").value("UNAUTHENTICATED"));
		this.mvc.perform(as("viewer", post("/durable/batches").contentType(MediaType.APPLICATION_JSON).content(batch)))
			.andExpect(status().isForbidden())
			.andExpect(jsonPath("$.code").value("ROLE_REQUIRED"));
		this.mvc.perform(get("/durable/batches/role-batch")).andExpect(jsonPath("$.code").value("BATCH_NOT_FOUND"));
		this.mvc
			.perform(as("operator", post("/durable/batches").contentType(MediaType.APPLICATION_JSON).content(batch)))
			.andExpect(status().isAccepted());
		this.mvc.perform(as("viewer", post("/durable/batches/role-batch/cancel")))
			.andExpect(status().isForbidden())
			.andExpect(jsonPath("$.code").value("ROLE_REQUIRED"));
		this.mvc.perform(get("/durable/batches/role-batch")).andExpect(status().isOk());
		this.mvc.perform(as("operator", post("/durable/batches/role-batch/cancel"))).andExpect(status().isOk());
	}

	@Test
	void signalWithStartNeedsTheRole() throws Exception {
		String body = "{\"type\":\"order\",\"workflowId\":\"role-2\",\"input\":" + ORDER
				+ ",\"signal\":{\"name\":\"addNote\",\"payload\":\"x\"}}";
		this.mvc.perform(as("viewer", post("/durable/workflows").contentType(MediaType.APPLICATION_JSON).content(body)))
			.andExpect(status().isForbidden())
			.andExpect(jsonPath("$.code").value("ROLE_REQUIRED"));
		this.mvc.perform(get("/durable/workflows/role-2")).andExpect(status().isNotFound());
		this.mvc
			.perform(as("operator", post("/durable/workflows").contentType(MediaType.APPLICATION_JSON).content(body)))
			.andExpect(status().isCreated());
	}

	@Test
	void theDashboardShowsItsActionsToTheRoleOnly() throws Exception {
		this.mvc.perform(get("/durable/ui")).andExpect(content().string(containsString("\"actions\":false")));
		this.mvc.perform(as("viewer", get("/durable/ui")))
			.andExpect(content().string(containsString("\"actions\":false")));
		this.mvc.perform(as("operator", get("/durable/ui")))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("\"actions\":true")));
	}

}
