package dev.durable.workflow.autoconfigure.broken.badactivity;

import java.io.InputStream;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.durable.workflow.activity.Activity;

/** An application with an activity that takes a stream. */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class BadActivityConfiguration {

	@Bean
	Uploads uploads() {
		return new Uploads();
	}

	/** Takes what cannot be recorded. */
	@Activity
	public static class Uploads {

		public String upload(InputStream content) {
			return "uploaded";
		}

	}

}
