package dev.durable.chaos;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * One engine node of the chaos harness: an ordinary Spring Boot application with the starter, its
 * workflows and activities, and nothing else. The harness starts several of these as processes
 * and hurts them.
 */
@SpringBootApplication
public class ChaosApplication {

	public static void main(String[] args) {
		SpringApplication.run(ChaosApplication.class, args);
	}

}
