package dev.durable.workflow.autoconfigure.greeting;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** An application whose package holds a workflow and its activities. */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class GreetingConfiguration {

	@Bean
	Punctuation punctuation() {
		return new Punctuation("!");
	}

	@Bean
	Farewells farewells() {
		return new EnglishFarewells();
	}

	/** The implementation of an activity interface. */
	public static class EnglishFarewells implements Farewells {

		@Override
		public String farewell(String name) {
			return "Bye " + name;
		}

	}

}
