package dev.durable.workflow.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A JUnit 5 test class whose tests each get a fresh {@link TestWorkflowEnvironment}
 * (shared embedded PostgreSQL, own schema, time skipping), closed after the test. Test
 * methods and constructors may declare {@link TestWorkflowEnvironment},
 * {@link dev.durable.workflow.client.WorkflowClient} and
 * {@link dev.durable.workflow.engine.WorkflowEngine} parameters; asking for the client or
 * the engine starts it, so declare only the environment when the test registers
 * activities (mocks) itself.
 *
 * <pre>{@code
 * &#64;WorkflowTest(workflows = ReminderWorkflow.class, activities = Mailer.class)
 * class ReminderWorkflowTest {
 *

&#64;Test
 *   void remindsAfterThirtyDays(WorkflowClient client) { ... }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(WorkflowTestExtension.class)
public @interface WorkflowTest {

	/** Workflow classes to register. */
	Class<?>[] workflows() default {};

	/** Activity classes to instantiate (public no-argument constructor) and register. */
	Class<?>[] activities() default {};

	/** Whether time jumps by itself while a result is awaited. */
	boolean autoTimeSkipping() default true;

}
