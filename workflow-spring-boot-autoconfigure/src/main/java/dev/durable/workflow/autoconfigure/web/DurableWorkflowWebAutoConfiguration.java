package dev.durable.workflow.autoconfigure.web;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;

import dev.durable.workflow.WorkflowEngine;
import dev.durable.workflow.autoconfigure.DurableWorkflowAutoConfiguration;
import dev.durable.workflow.autoconfigure.DurableWorkflowProperties;
import dev.durable.workflow.client.ActivityCompletionClient;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.web.ActivityCompletionController;
import dev.durable.workflow.web.DashboardController;
import dev.durable.workflow.web.QueueRestController;
import dev.durable.workflow.web.ScheduleRestController;
import dev.durable.workflow.web.WebAccess;
import dev.durable.workflow.web.WebPayloads;
import dev.durable.workflow.web.WorkflowMessageController;
import dev.durable.workflow.web.WorkflowProblems;
import dev.durable.workflow.web.WorkflowRestController;
import dev.durable.workflow.web.WorkflowTypes;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of
 * the generated REST endpoints under {@code durable.workflow.web.base-path}: ordinary MVC
 * controllers, so the application's security filter chain applies to them.
 */
@AutoConfiguration(after = DurableWorkflowAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBean({ WorkflowEngine.class, WorkflowClient.class })
@ConditionalOnBooleanProperty(name = "durable.workflow.web.enabled", matchIfMissing = true)
public final class DurableWorkflowWebAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	WorkflowTypes durableWorkflowTypes(WorkflowEngine engine) {
		return new WorkflowTypes(engine);
	}

	@Bean
	@ConditionalOnMissingBean
	WebPayloads durableWorkflowWebPayloads(ObjectProvider<JsonMapper> jsonMapper, DurableWorkflowProperties properties) {
		return new WebPayloads(jsonMapper.getIfAvailable(() -> JsonMapper.builder().build()),
				Math.toIntExact(properties.getMaxPayloadSize().toBytes()));
	}

	@Bean
	@ConditionalOnMissingBean
	WebAccess durableWorkflowWebAccess(DurableWorkflowProperties properties) {
		return new WebAccess(properties.getWeb().getBasePath(), properties.getWeb().isReadOnly());
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
	ScheduleRestController durableWorkflowScheduleController(WorkflowClient client, WorkflowTypes types,
			WebPayloads payloads, WebAccess access) {
		return new ScheduleRestController(client, types, payloads, access);
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

}
