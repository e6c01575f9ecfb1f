package dev.durable.workflow.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.PropertyMapper;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.ResourceTransactionManager;
import org.springframework.util.StringUtils;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.client.ActivityCompletionClient;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.MdcPropagatingInterceptor;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.engine.WorkflowInterceptor;
import dev.durable.workflow.payload.PayloadConverter;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the durable workflow engine: a {@link WorkflowEngine} on the
 * application's {@link DataSource}, serving every {@link Workflow @Workflow} class of the
 * application's packages with every
 * {@link dev.durable.workflow.activity.Activity @Activity} bean, a {@link WorkflowClient}
 * and its {@link ActivityCompletionClient}, and the lifecycle that starts and stops the
 * engine with the context.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass(WorkflowEngine.class)
@ConditionalOnSingleCandidate(DataSource.class)
@EnableConfigurationProperties(DurableWorkflowProperties.class)
public final class DurableWorkflowAutoConfiguration {

	private static final Log logger = LogFactory.getLog(DurableWorkflowAutoConfiguration.class);

	@Bean
	static ActivityBeanRegistrar durableWorkflowActivityBeanRegistrar() {
		return new ActivityBeanRegistrar();
	}

	@Bean
	@ConditionalOnMissingBean
	WorkflowEngine workflowEngine(DataSource dataSource, DurableWorkflowProperties properties,
			ConfigurableListableBeanFactory beanFactory, Environment environment, ResourceLoader resourceLoader,
			ObjectProvider<PayloadConverter> payloadConverter, ObjectProvider<WorkflowInterceptor> interceptors,
			ObjectProvider<WorkflowEngineCustomizer> customizers,
			ObjectProvider<PlatformTransactionManager> transactionManagers, ObjectProvider<BuildProperties> build) {
		SpringWorkflowFactory factory = new SpringWorkflowFactory(beanFactory);
		WorkflowEngine.Builder builder = WorkflowEngine.builder().dataSource(dataSource).workflowFactory(factory);
		applyProperties(properties, builder);
		String buildId = buildId(properties, build.getIfAvailable());
		if (buildId != null) {
			builder.buildId(buildId);
		}
		Set<Class<?>> workflows = WorkflowScanner.scan(WorkflowScanner.packages(beanFactory), Workflow.class,
				environment, resourceLoader, beanFactory.getBeanClassLoader());
		workflows.forEach(SpringWorkflowFactory::rejectTransactional);
		builder.register(workflows.toArray(Class<?>[]::new));
		builder.registerActivities(activityBeans(beanFactory).toArray());
		PlatformTransactionManager transactionManager = transactionManagers.getIfUnique();
		if (transactionManager != null && managesConnectionsOf(transactionManager, dataSource)) {
			// the application's JPA or JDBC code then joins a transactional activity's
			// transaction
			builder.activityTransactionManager(transactionManager);
		}
		payloadConverter.ifAvailable(builder::payloadConverter);
		if (!properties.getPropagation().getMdcKeys().isEmpty()) {
			builder.interceptor(new MdcPropagatingInterceptor(properties.getPropagation().getMdcKeys()));
		}
		interceptors.orderedStream().forEach(builder::interceptor);
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		WorkflowEngine engine = builder.build();
		factory.setEngine(engine);
		workflows.forEach(factory::validate);
		if (logger.isDebugEnabled()) {
			logger.debug("Workflow classes found in " + WorkflowScanner.packages(beanFactory) + ": " + workflows);
		}
		return engine;
	}

	/**
	 * The node's build id: the property, else the application's version from its build
	 * info, else none (unversioned).
	 */
	static @Nullable String buildId(DurableWorkflowProperties properties, @Nullable BuildProperties build) {
		String configured = properties.getNode().getBuildId();
		if (StringUtils.hasText(configured)) {
			return configured.strip();
		}
		return (build != null && StringUtils.hasText(build.getVersion())) ? build.getVersion() : null;
	}

	private static void applyProperties(DurableWorkflowProperties properties, WorkflowEngine.Builder builder) {
		PropertyMapper map = PropertyMapper.get();
		map.from(properties::getNamespace).to(builder::namespace);
		map.from(properties::getSchema).to(builder::schema);
		map.from(properties::isMigrateSchema).to(builder::migrateSchema);
		DurableWorkflowProperties.Direct direct = properties.getDirect();
		map.from(direct::getUrl)
			.as((url) -> new DriverManagerDataSource(url, direct.getUsername(), direct.getPassword()))
			.to(builder::directDataSource);
		map.from(properties::getMaxPayloadSize)
			.as((size) -> Math.toIntExact(size.toBytes()))
			.to(builder::maxPayloadSize);
		map.from(properties::getRetention).to(builder::retention);
		DurableWorkflowProperties.Versioning versioning = properties.getVersioning();
		map.from(versioning::getDefaultBehavior).to(builder::defaultVersioningBehavior);
		versioning.getMoveStrandedAfter().forEach(builder::moveStrandedRunsAfter);
		DurableWorkflowProperties.Worker worker = properties.getWorker();
		map.from(worker::isEnabled).to(builder::worker);
		map.from(worker::isWorkflows).to(builder::runWorkflows);
		map.from(worker::getActivityTaskQueues)
			.as((queues) -> queues.toArray(String[]::new))
			.to(builder::activityTaskQueues);
		map.from(worker::getMaxConcurrentActivities).to(builder::maxConcurrentActivities);
		map.from(worker::getMaxCachedRuns).to(builder::maxCachedRuns);
		map.from(worker::getPollInterval).to(builder::pollInterval);
		map.from(worker::getTaskQueues).as((queues) -> queues.toArray(String[]::new)).to(builder::taskQueues);
		map.from(worker::getShutdownTimeout).to(builder::shutdownTimeout);
		map.from(worker::getTaskTimeout).to(builder::taskTimeout);
		map.from(worker::getCacheIdleTimeout).to(builder::cacheIdleTimeout);
		map.from(worker::getFailWorkflowExceptionTypes)
			.when((types) -> !types.isEmpty())
			.as(DurableWorkflowAutoConfiguration::exceptionTypes)
			.to(builder::failWorkflowExceptionTypes);
		DurableWorkflowProperties.History history = properties.getHistory();
		builder.historyLimits(history.getSuggestedEvents(), history.getSuggestedSize().toBytes(),
				history.getMaxEvents(), history.getMaxSize().toBytes());
		DurableWorkflowProperties.Node node = properties.getNode();
		map.from(node::getHeartbeatInterval).to(builder::heartbeatInterval);
		map.from(node::getDeadAfter).to(builder::deadAfter);
		map.from(node::getStatementTimeout).to(builder::statementTimeout);
		map.from(node::getIdleInTransactionTimeout).to(builder::idleInTransactionTimeout);
		properties.getQueues().forEach((name, queue) -> builder.queue(queue.toDefinition(name)));
		DurableWorkflowProperties.Activity.Transactional transactional = properties.getActivity().getTransactional();
		builder.transactionalActivities(transactional.getIsolation(), transactional.getSerializationRetries());
	}

	/**
	 * Whether the application's transaction manager binds connections of the engine's
	 * data source (a {@code DataSourceTransactionManager} or
	 * {@code JpaTransactionManager} of it): only then can a transactional activity's
	 * completion commit in its transaction. Otherwise the engine runs those transactions
	 * with a manager of its own on the data source.
	 */
	static boolean managesConnectionsOf(PlatformTransactionManager manager, DataSource dataSource) {
		if (manager instanceof ResourceTransactionManager resources && resources.getResourceFactory() == dataSource) {
			return true;
		}
		try {
			return manager.getClass().getMethod("getDataSource").invoke(manager) == dataSource;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return false;
		}
	}

	@SuppressWarnings("unchecked")
	private static Class<? extends Throwable>[] exceptionTypes(List<Class<? extends Throwable>> types) {
		return types.toArray(Class[]::new);
	}

	/**
	 * The beans whose class, or an interface of it, carries {@code @Activity}, as the
	 * context holds them.
	 */
	private static List<Object> activityBeans(ConfigurableListableBeanFactory beanFactory) {
		List<Object> beans = new ArrayList<>();
		for (String name : beanFactory.getBeanNamesForType(Object.class, false, false)) {
			if (ScopedProxyUtils.isScopedTarget(name)) {
				continue;
			}
			Class<?> type = beanFactory.getType(name, false);
			if (type != null && WorkflowEngine.isActivityType(type)) {
				beans.add(beanFactory.getBean(name));
			}
		}
		return beans;
	}

	@Bean
	@ConditionalOnMissingBean
	WorkflowClient workflowClient(ObjectProvider<WorkflowEngine> engine) {
		return LazyClients.workflowClient(engine::getObject);
	}

	@Bean
	@ConditionalOnMissingBean
	ActivityCompletionClient activityCompletionClient(ObjectProvider<WorkflowClient> client) {
		return LazyClients.activityCompletionClient(client::getObject);
	}

	@Bean
	@ConditionalOnMissingBean
	WorkflowEngineLifecycle workflowEngineLifecycle(WorkflowEngine engine) {
		return new WorkflowEngineLifecycle(engine);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty("durable.workflow.replay-check.on-startup")
	StartupReplayCheck durableStartupReplayCheck(WorkflowEngine engine, DurableWorkflowProperties properties) {
		return new StartupReplayCheck(engine, properties.getReplayCheck().getSampleSize());
	}

}
