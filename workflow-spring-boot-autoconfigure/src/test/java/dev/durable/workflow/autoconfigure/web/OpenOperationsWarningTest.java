package dev.durable.workflow.autoconfigure.web;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.security.web.DefaultSecurityFilterChain;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.util.matcher.AnyRequestMatcher;

import dev.durable.workflow.autoconfigure.DurableWorkflowAutoConfiguration;
import dev.durable.workflow.autoconfigure.greeting.GreetingConfiguration;
import dev.durable.workflow.test.EmbeddedPostgresSupport;
import dev.durable.workflow.web.CallerRoles;
import dev.durable.workflow.web.SpringSecurityCallerRoles;
import dev.durable.workflow.web.WebAccess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The startup warning when the operations are open to every caller with no Spring
 * Security filter chain, and the module with and without Spring Security on the
 * classpath.
 */
@ExtendWith(OutputCaptureExtension.class)
class OpenOperationsWarningTest {

	private static final String OPEN = "are open to every caller";

	private static final String NO_AUTHENTICATION = "no Spring Security filter chain authenticates callers";

	private final WebApplicationContextRunner web = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class,
				DurableWorkflowWebAutoConfiguration.class))
		.withUserConfiguration(GreetingConfiguration.class)
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withPropertyValues("durable.workflow.schema=web_warning", "durable.workflow.worker.enabled=false");

	/** Neither Spring Security's core nor its web module. */
	private static FilteredClassLoader withoutSpringSecurity() {
		return new FilteredClassLoader("org.springframework.security");
	}

	@Test
	void openOperationsWithoutSpringSecurityAreWarnedOf(CapturedOutput output) {
		this.web.withClassLoader(withoutSpringSecurity())
			.withPropertyValues("durable.workflow.web.operations-enabled=true")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(CallerRoles.class);
				assertThat(context.getBean(WebAccess.class).operationsOpenToAll()).isTrue();
				assertThat(output).contains(OPEN).contains("durable.workflow.web.operations-enabled=true");
			});
	}

	@Test
	void openOperationsBehindASecurityFilterChainAreNotWarnedOf(CapturedOutput output) {
		this.web.withPropertyValues("durable.workflow.web.operations-enabled=true")
			.withBean(SecurityFilterChain.class, () -> new DefaultSecurityFilterChain(AnyRequestMatcher.INSTANCE))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.getBean(CallerRoles.class)
					.isInstanceOf(SpringSecurityCallerRoles.class);
				assertThat(output).doesNotContain(OPEN);
			});
	}

	@Test
	void theSafeDefaultIsNotWarnedOf(CapturedOutput output) {
		this.web.withClassLoader(withoutSpringSecurity()).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(WebAccess.class).operationsOpenToAll()).isFalse();
			assertThat(output).doesNotContain(OPEN).doesNotContain(NO_AUTHENTICATION);
		});
	}

	@Test
	void readOnlyModeIsNotWarnedOf(CapturedOutput output) {
		this.web.withClassLoader(withoutSpringSecurity())
			.withPropertyValues("durable.workflow.web.operations-enabled=true", "durable.workflow.web.read-only=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain(OPEN);
			});
	}

	@Test
	void aRequiredRoleWithNothingToAuthenticateCallersIsWarnedOf(CapturedOutput output) {
		this.web.withClassLoader(withoutSpringSecurity())
			.withPropertyValues("durable.workflow.web.operations-enabled=true",
					"durable.workflow.web.required-role=DURABLE_OPERATOR")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(WebAccess.class).operationsOpenToAll()).isFalse();
				assertThat(output).contains(NO_AUTHENTICATION).doesNotContain(OPEN);
			});
	}

}
