package dev.durable.workflow.autoconfigure.web;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.json.JsonMapper;

import dev.durable.workflow.autoconfigure.DurableWorkflowAutoConfiguration;
import dev.durable.workflow.autoconfigure.DurableWorkflowProperties;
import dev.durable.workflow.client.ActivityCompletionClient;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.web.ActivityCompletionController;
import dev.durable.workflow.web.ActivityOperationsRestController;
import dev.durable.workflow.web.BatchRestController;
import dev.durable.workflow.web.BuildRestController;
import dev.durable.workflow.web.CallerRoles;
import dev.durable.workflow.web.DashboardController;
import dev.durable.workflow.web.DebounceRestController;
import dev.durable.workflow.web.OperationAccessInterceptor;
import dev.durable.workflow.web.OverviewRestController;
import dev.durable.workflow.web.QueueRestController;
import dev.durable.workflow.web.ReplayCheckRestController;
import dev.durable.workflow.web.ScheduleRestController;
import dev.durable.workflow.web.ServletCallerRoles;
import dev.durable.workflow.web.SpringSecurityCallerRoles;
import dev.durable.workflow.web.TopicRestController;
import dev.durable.workflow.web.WebAccess;
import dev.durable.workflow.web.WebPayloads;
import dev.durable.workflow.web.WorkflowMessageController;
import dev.durable.workflow.web.WorkflowOutputController;
import dev.durable.workflow.web.WorkflowProblems;
import dev.durable.workflow.web.WorkflowRestController;
import dev.durable.workflow.web.WorkflowRouteProblems;
import dev.durable.workflow.web.WorkflowTypes;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the generated REST endpoints under
 * {@code durable.workflow.web.base-path}: ordinary MVC controllers, so the application's
 * security filter chain applies to them. Reads and starts are open; the other mutating
 * endpoints (the operations) are off unless
 * {@code durable.workflow.web.operations-enabled} or
 * {@code durable.workflow.web.required-role} allows them
 * ({@link OperationAccessInterceptor}).
 */
@AutoConfiguration(after = DurableWorkflowAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBean({ WorkflowEngine.class, WorkflowClient.class })
@ConditionalOnBooleanProperty(name = "durable.workflow.web.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DurableWorkflowWebProperties.class)
public final class DurableWorkflowWebAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	WorkflowTypes durableWorkflowTypes(WorkflowEngine engine) {
		return new WorkflowTypes(engine);
	}

	@Bean
	@ConditionalOnMissingBean
	WebPayloads durableWorkflowWebPayloads(ObjectProvider<JsonMapper> jsonMapper,
			DurableWorkflowProperties properties) {
		return new WebPayloads(jsonMapper.getIfAvailable(() -> JsonMapper.builder().build()),
				Math.toIntExact(properties.getMaxPayloadSize().toBytes()));
	}

	@Bean
	@ConditionalOnMissingBean
	WebAccess durableWorkflowWebAccess(DurableWorkflowWebProperties web, ObjectProvider<CallerRoles> callers) {
		return new WebAccess(web.getBasePath(), web.isReadOnly(), web.isOperationsEnabled(), web.getRequiredRole(),
				callers.getIfAvailable(ServletCallerRoles::new));
	}

	@Bean
	WebMvcConfigurer durableWorkflowOperationAccess(WebAccess access) {
		OperationAccessInterceptor interceptor = new OperationAccessInterceptor(access);
		return new WebMvcConfigurer() {

			@Override
			public void addInterceptors(InterceptorRegistry registry) {
				registry.addInterceptor(interceptor);
			}

		};
	}

	@Bean
	EndpointUrlsLog durableWorkflowEndpointUrlsLog(DurableWorkflowWebProperties web,
			ObjectProvider<DashboardController> dashboard, Environment environment) {
		return new EndpointUrlsLog(web.getBasePath(), dashboard, environment);
	}

	@Bean
	OpenOperationsWarning durableWorkflowOpenOperationsWarning(WebAccess access, ListableBeanFactory beans) {
		return new OpenOperationsWarning(access, beans);
	}

	/** With Spring Security, a caller's roles are those of its security context. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.security.core.context.SecurityContextHolder")
	static class SpringSecurityRoles {

		@Bean
		@ConditionalOnMissingBean
		CallerRoles durableWorkflowCallerRoles() {
			return new SpringSecurityCallerRoles();
		}

	}

	@Bean
	@ConditionalOnMissingBean
	WorkflowRestController durableWorkflowRestController(WorkflowClient client, WorkflowTypes types,
			WebPayloads payloads, WebAccess access) {
		return new WorkflowRestController(client, types, payloads, access);
	}

	@Bean
	@ConditionalOnMissingBean
	WorkflowMessageController durableWorkflowMessageController(WorkflowClient client, WebPayloads payloads,
			WebAccess access) {
		return new WorkflowMessageController(client, payloads, access);
	}

	@Bean
	@ConditionalOnMissingBean
	ActivityOperationsRestController durableWorkflowActivityOperationsController(WorkflowClient client,
			WebPayloads payloads, WebAccess access) {
		return new ActivityOperationsRestController(client, payloads, access);
	}

	@Bean
	@ConditionalOnMissingBean
	WorkflowOutputController durableWorkflowOutputController(WorkflowClient client, WebPayloads payloads) {
		return new WorkflowOutputController(client, payloads);
	}

	@Bean
	@ConditionalOnMissingBean
	ScheduleRestController durableWorkflowScheduleController(WorkflowClient client, WorkflowTypes types,
			WebPayloads payloads, WebAccess access) {
		return new ScheduleRestController(client, types, payloads, access);
	}

	@Bean
	@ConditionalOnMissingBean
	DebounceRestController durableWorkflowDebounceController(WorkflowClient client, WorkflowTypes types,
			WebPayloads payloads, WebAccess access) {
		return new DebounceRestController(client, types, payloads, access);
	}

	@Bean
	@ConditionalOnMissingBean
	BatchRestController durableWorkflowBatchController(WorkflowClient client, WebPayloads payloads, WebAccess access) {
		return new BatchRestController(client, payloads, access);
	}

	@Bean
	@ConditionalOnBean(ActivityCompletionClient.class)
	@ConditionalOnMissingBean
	ActivityCompletionController durableWorkflowActivityCompletionController(ActivityCompletionClient completion,
			WebPayloads payloads, WebAccess access) {
		return new ActivityCompletionController(completion, payloads, access);
	}

	@Bean
	@ConditionalOnMissingBean
	QueueRestController durableWorkflowQueueController(WorkflowEngine engine) {
		return new QueueRestController(engine);
	}

	@Bean
	@ConditionalOnMissingBean
	BuildRestController durableWorkflowBuildController(WorkflowClient client) {
		return new BuildRestController(client);
	}

	@Bean
	@ConditionalOnMissingBean
	TopicRestController durableWorkflowTopicController(WorkflowClient client, WebPayloads payloads) {
		return new TopicRestController(client, payloads);
	}

	@Bean
	@ConditionalOnMissingBean
	ReplayCheckRestController durableWorkflowReplayCheckController(WorkflowEngine engine, WebPayloads payloads) {
		return new ReplayCheckRestController(engine, payloads);
	}

	@Bean
	@ConditionalOnMissingBean
	OverviewRestController durableWorkflowOverviewController(WorkflowEngine engine,
			DurableWorkflowProperties properties) {
		return new OverviewRestController(engine, properties.getHealth().getStuckAfter());
	}

	@Bean
	@ConditionalOnBooleanProperty(name = "durable.workflow.dashboard.enabled", matchIfMissing = true)
	@ConditionalOnMissingBean
	DashboardController durableWorkflowDashboard(WebAccess access) {
		return new DashboardController(access);
	}

	@Bean
	@ConditionalOnMissingBean
	WorkflowProblems durableWorkflowProblems() {
		return new WorkflowProblems();
	}

	@Bean
	@ConditionalOnMissingBean
	WorkflowRouteProblems durableWorkflowRouteProblems(DurableWorkflowWebProperties web) {
		return new WorkflowRouteProblems(web.getBasePath());
	}

}
