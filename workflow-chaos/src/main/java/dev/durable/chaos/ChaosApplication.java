package dev.durable.chaos;

import java.time.Clock;
import java.time.Duration;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import dev.durable.workflow.autoconfigure.WorkflowEngineCustomizer;

/**
 * One engine node of the chaos harness: an ordinary Spring Boot application with the
 * starter, its workflows and activities, and nothing else. The harness starts several of
 * these as processes and hurts them.
 */
@SpringBootApplication
public class ChaosApplication {

	public static void main(String[] args) {
		SpringApplication.run(ChaosApplication.class, args);
	}

	/**
	 * The engine's clock off the machine's by {@code chaos.clock-offset} (an ISO-8601
	 * duration, may be negative): a node whose clock is wrong, as the harness's
	 * {@code --clockSkew} asks.
	 */
	@Bean
	WorkflowEngineCustomizer chaosClockOffset(@Value("${chaos.clock-offset:PT0S}") Duration offset) {
		return (builder) -> {
			if (!offset.isZero()) {
				builder.clock(Clock.offset(Clock.systemUTC(), offset));
			}
		};
	}

}
