package dev.durable.workflow.test.spring;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

import dev.durable.workflow.autoconfigure.WorkflowEngineCustomizer;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.test.EmbeddedPostgresSupport;
import dev.durable.workflow.test.TimeSkipper;
import dev.durable.workflow.testsupport.SettableClock;

/**
 * What {@link DurableWorkflowTest} does to an application context: test properties
 * (embedded database, fresh schema), a {@link SettableClock} and a {@link TimeSkipper} as
 * beans, and a {@link WorkflowEngineCustomizer} that gives the engine the clock, the
 * skipper's listener and test intervals. The skipper starts once the context is refreshed
 * (the engine is running) and stops with the context.
 */
final class DurableWorkflowTestContextCustomizer implements ContextCustomizer {

	private final boolean embeddedDatabase;

	private final boolean autoTimeSkipping;

	private final String startTime;

	DurableWorkflowTestContextCustomizer(boolean embeddedDatabase, boolean autoTimeSkipping, String startTime) {
		this.embeddedDatabase = embeddedDatabase;
		this.autoTimeSkipping = autoTimeSkipping;
		this.startTime = startTime;
	}

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
		Map<String, Object> properties = new LinkedHashMap<>();
		if (this.embeddedDatabase) {
			properties.put("spring.datasource.url", EmbeddedPostgresSupport.jdbcUrl());
			properties.put("spring.datasource.username", EmbeddedPostgresSupport.USER);
			properties.put("durable.workflow.embedded-postgres.enabled", "false");
		}
		properties.put("durable.workflow.schema", EmbeddedPostgresSupport.newSchemaName());
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("durableWorkflowTest", properties));

		SettableClock clock = new SettableClock(this.startTime.isEmpty() ? Instant.now().truncatedTo(ChronoUnit.MILLIS)
				: Instant.parse(this.startTime));
		AtomicReference<WorkflowEngine> engine = new AtomicReference<>();
		TimeSkipper skipper = new TimeSkipper(clock, () -> {
			WorkflowEngine current = engine.get();
			return (current != null) ? List.of(current) : List.of();
		});
		skipper.setAutoTimeSkipping(this.autoTimeSkipping);
		WorkflowEngineCustomizer customizer = (builder) -> builder.clock(clock)
			.listener(skipper.listener())
			.pollInterval(Duration.ofMillis(100))
			.cacheIdleTimeout(Duration.ofDays(365 * 100))
			.retention(Duration.ZERO);
		var beans = context.getBeanFactory();
		beans.registerSingleton("durableTestClock", clock);
		beans.registerSingleton("durableTimeSkipper", skipper);
		beans.registerSingleton("durableTimeSkippingCustomizer", customizer);
		context.addApplicationListener((ApplicationEvent event) -> {
			if (event instanceof ContextRefreshedEvent refreshed && refreshed.getApplicationContext() == context) {
				engine.set(context.getBeanProvider(WorkflowEngine.class).getIfAvailable());
				skipper.start();
			}
			else if (event instanceof ContextClosedEvent closed && closed.getApplicationContext() == context) {
				skipper.close();
			}
		});
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other instanceof DurableWorkflowTestContextCustomizer that
				&& this.embeddedDatabase == that.embeddedDatabase && this.autoTimeSkipping == that.autoTimeSkipping
				&& this.startTime.equals(that.startTime);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.embeddedDatabase, this.autoTimeSkipping, this.startTime);
	}

}
