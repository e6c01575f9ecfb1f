package dev.durable.workflow.autoconfigure.web;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Logs once, when the application's web server has started, where the workflow REST API,
 * the dashboard and (with springdoc) the OpenAPI document or Swagger UI answer: what a
 * developer looks for first after the start.
 */
final class EndpointUrlsLog implements ApplicationListener<WebServerInitializedEvent>, BeanClassLoaderAware {

	private static final Log logger = LogFactory.getLog(EndpointUrlsLog.class);

	private static final String SWAGGER_UI = "org.springdoc.webmvc.ui.SwaggerConfig";

	private static final String OPEN_API = "org.springdoc.webmvc.api.OpenApiWebMvcResource";

	private final String basePath;

	private final ObjectProvider<?> dashboard;

	private final Environment environment;

	private ClassLoader classLoader = getClass().getClassLoader();

	/**
	 * @param basePath the base path of the generated endpoints
	 * @param dashboard the dashboard's controller, a bean when the dashboard is served
	 * @param environment where the context path and springdoc's paths are read
	 */
	EndpointUrlsLog(String basePath, ObjectProvider<?> dashboard, Environment environment) {
		this.basePath = basePath;
		this.dashboard = dashboard;
		this.environment = environment;
	}

	@Override
	public void setBeanClassLoader(ClassLoader classLoader) {
		// the application's: springdoc may be absent from it
		this.classLoader = classLoader;
	}

	@Override
	public void onApplicationEvent(WebServerInitializedEvent event) {
		// the management server, when it has a port of its own, has a namespace
		if (event.getApplicationContext().getServerNamespace() != null) {
			return;
		}
		logger.info(message(event.getWebServer().getPort()));
	}

	String message(int port) {
		String root = "http://localhost:" + port + this.environment.getProperty("server.servlet.context-path", "");
		StringBuilder message = new StringBuilder("Durable workflows: REST API at ").append(root).append(this.basePath);
		if (this.dashboard.getIfAvailable() != null) {
			message.append(", dashboard at ").append(root).append(this.basePath).append("/ui");
		}
		if (ClassUtils.isPresent(SWAGGER_UI, this.classLoader)) {
			message.append(", Swagger UI at ")
				.append(root)
				.append(this.environment.getProperty("springdoc.swagger-ui.path", "/swagger-ui.html"));
		}
		else if (ClassUtils.isPresent(OPEN_API, this.classLoader)) {
			message.append(", OpenAPI document at ")
				.append(root)
				.append(this.environment.getProperty("springdoc.api-docs.path", "/v3/api-docs"));
		}
		return message.toString();
	}

}
