package dev.durable.generatedclient;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small application whose REST API a client is generated for: one workflow type with an
 * activity, signals (one with a string payload), a query and an update.
 */
@SpringBootApplication
public class TicketsApplication {

	public static void main(String[] args) {
		SpringApplication.run(TicketsApplication.class, args);
	}

}
