package dev.durable.docs.testing.boot;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application of the testing guide's {@code ReminderTest}: one workflow. */
@SpringBootApplication
public class ReminderApplication {

}
