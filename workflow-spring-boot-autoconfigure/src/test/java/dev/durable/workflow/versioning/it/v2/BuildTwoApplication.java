package dev.durable.workflow.versioning.it.v2;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

import dev.durable.workflow.versioning.it.Steps;

/** Build 2.0 of the versioned application: the workflows of this package. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(Steps.class)
public class BuildTwoApplication {

	public static void main(String[] args) {
		SpringApplication.run(BuildTwoApplication.class, args);
	}

}
