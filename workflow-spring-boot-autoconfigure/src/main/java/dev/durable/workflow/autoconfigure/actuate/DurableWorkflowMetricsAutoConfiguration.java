package dev.durable.workflow.autoconfigure.actuate;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.durable.workflow.autoconfigure.DurableWorkflowAutoConfiguration;
import dev.durable.workflow.autoconfigure.WorkflowEngineCustomizer;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the engine's Micrometer meters ({@link WorkflowMetricsListener},
 * the {@code durable.workflow.cache.size} gauge and the queue gauges of
 * {@link QueueMetrics}) when there is a {@link MeterRegistry}, and of its Observations
 * ({@link WorkflowObservationInterceptor}, which carries the trace of a start to the
 * run's work) when there is an {@link ObservationRegistry}. The metrics listener joins
 * the auto-configured engine through a {@link WorkflowEngineCustomizer} bean, the
 * interceptor as a {@link dev.durable.workflow.engine.WorkflowInterceptor} bean.
 */
@AutoConfiguration(after = DurableWorkflowAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
				"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration" })
@ConditionalOnClass(WorkflowEngine.class)
public final class DurableWorkflowMetricsAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	static final class MetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		WorkflowMetricsListener durableWorkflowMetricsListener(MeterRegistry registry) {
			return new WorkflowMetricsListener(registry);
		}

		@Bean
		WorkflowEngineCustomizer durableWorkflowMetricsCustomizer(WorkflowMetricsListener listener) {
			return (builder) -> builder.listener(listener);
		}

		/** The runs this node holds in memory; read when the gauge is. */
		@Bean
		MeterBinder durableWorkflowCacheMeterBinder(ObjectProvider<WorkflowEngine> engine) {
			return (registry) -> Gauge.builder("durable.workflow.cache.size", () -> {
				WorkflowEngine current = engine.getIfAvailable();
				return (current != null) ? current.cachedRuns() : 0;
			}).description("Workflow runs held in memory by this node").strongReference(true).register(registry);
		}

		/**
		 * The open runs an operator paused, in the namespace: one count over the open
		 * runs, read at most every 10 s however often the gauge is.
		 */
		@Bean
		MeterBinder durableWorkflowPausedRunsMeterBinder(ObjectProvider<WorkflowEngine> engine) {
			PausedRuns paused = new PausedRuns(engine::getIfAvailable, PausedRuns.DEFAULT_REFRESH);
			return (registry) -> Gauge.builder("durable.workflow.runs.paused", paused, PausedRuns::count)
				.description("Open workflow runs an operator paused")
				.strongReference(true)
				.register(registry);
		}

		/**
		 * The queue gauges; the engine is looked up when the snapshot is first read,
		 * after it started.
		 */
		@Bean
		@ConditionalOnBean(WorkflowEngine.class)
		@ConditionalOnMissingBean
		QueueMetrics durableWorkflowQueueMetrics(ObjectProvider<WorkflowEngine> engine) {
			return new QueueMetrics(() -> engine.getObject().queues(), () -> engine.getObject().now(),
					QueueMetrics.DEFAULT_REFRESH);
		}

		/**
		 * The build gauges (stranded and pinned runs, live nodes per build); the engine
		 * is looked up when the snapshot is first read, after it started.
		 */
		@Bean
		@ConditionalOnBean(WorkflowEngine.class)
		@ConditionalOnMissingBean
		BuildMetrics durableWorkflowBuildMetrics(ObjectProvider<WorkflowEngine> engine) {
			return new BuildMetrics(() -> engine.getObject().client().builds().list(), BuildMetrics.DEFAULT_REFRESH);
		}

		/**
		 * The topic meters (events dispatched, waiting runs, undispatched events per
		 * topic); the engine is looked up when the snapshot is first read, after it
		 * started.
		 */
		@Bean
		@ConditionalOnBean(WorkflowEngine.class)
		@ConditionalOnMissingBean
		TopicMetrics durableWorkflowTopicMetrics(ObjectProvider<WorkflowEngine> engine) {
			return new TopicMetrics(() -> engine.getObject().client().topics(), TopicMetrics.DEFAULT_REFRESH);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ObservationRegistry.class)
	@ConditionalOnBean(ObservationRegistry.class)
	static final class ObservationConfiguration {

		@Bean
		@ConditionalOnMissingBean
		WorkflowObservationInterceptor durableWorkflowObservationInterceptor(ObservationRegistry registry) {
			return new WorkflowObservationInterceptor(registry);
		}

		@Bean
		WorkflowEngineCustomizer durableWorkflowObservationCustomizer(WorkflowObservationInterceptor interceptor) {
			return (builder) -> builder.listener(interceptor.taskFailures());
		}

	}

}
