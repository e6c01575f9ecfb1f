package dev.durable.workflow.test.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Put on a {@code @SpringBootTest} class: the application's auto-configured workflow
 * engine runs on a time-skipping clock, and a
 * {@link dev.durable.workflow.test.TimeSkipper} bean controls it
 * ({@code sleep(Duration)}, {@code currentTime()}, {@code
 * setAutoTimeSkipping(boolean)}). While the test waits for a result and every run waits
 * for time, time jumps to the next timer, so a workflow that waits 48 hours finishes in
 * milliseconds.
 *
 * <p>
 * By default the application also gets the JVM's shared embedded PostgreSQL ({@code
 * spring.datasource.url}, overriding the application's) and a fresh {@code
 * durable.workflow.schema} per application context.
 *
 * <pre>{@code
 * &#64;SpringBootTest

 * &#64;DurableWorkflowTest
 * class ReminderTest {
 *   &#64;Autowired WorkflowClient client;
 *   &#64;Autowired TimeSkipper time;
 *
 *
&#64;Test
 *   void remindsTwoDaysLater() {
 *     var handle = client.start(ReminderWorkflow::run, "ada", StartOptions.withId("r-1"));
 *     assertThat(handle.result()).isEqualTo("reminded ada");
 *   }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface DurableWorkflowTest {

	/** Whether the application uses the shared embedded PostgreSQL (default true). */
	boolean embeddedDatabase() default true;

	/** Whether time jumps by itself while a result is awaited (default true). */
	boolean autoTimeSkipping() default true;

	/** The clock's initial time as an ISO-8601 instant; empty for now. */
	String startTime() default "";

}
