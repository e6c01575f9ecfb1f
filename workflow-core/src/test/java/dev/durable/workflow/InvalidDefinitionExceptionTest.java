package dev.durable.workflow;

import java.io.InputStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.failure.InvalidActivityDefinitionException;
import dev.durable.workflow.failure.InvalidWorkflowDefinitionException;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Registration refuses an invalid workflow class or activity with a public exception type
 * that names the class and keeps the rule's message, whichever rule refused it (the class
 * itself, a handler, a payload type, a name declared twice).
 */
class InvalidDefinitionExceptionTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Workflow("aimless")
	public static class NoRunMethod {

		public String run() {
			return "nothing";
		}

	}

	@Workflow("silent")
	public static class VoidQuery {

		@WorkflowRun
		public String run() {
			return "done";
		}

		@QueryMethod
		public void status() {
		}

	}

	@Workflow("twin")
	public static class FirstTwin {

		@WorkflowRun
		public String run() {
			return "first";
		}

	}

	@Workflow("twin")
	public static class SecondTwin {

		@WorkflowRun
		public String run() {
			return "second";
		}

	}

	@Activity
	public static class Uploads {

		public String upload(InputStream content) {
			return "uploaded";
		}

	}

	@Activity
	public static class BadTimeout {

		@ActivityMethod(startToCloseTimeout = "30 seconds")
		public String work() {
			return "worked";
		}

	}

	public static class NotAnActivity {

		public String work() {
			return "worked";
		}

	}

	@Test
	void aWorkflowWithoutARunMethodIsAnInvalidWorkflowDefinition() {
		InvalidWorkflowDefinitionException ex = catchThrowableOfType(InvalidWorkflowDefinitionException.class,
				() -> this.engines.builder().register(NoRunMethod.class).build());
		assertThat(ex.workflowClassName()).isEqualTo(NoRunMethod.class.getName());
		assertThat(ex).hasMessage(NoRunMethod.class.getName() + " has no public @WorkflowRun method")
			.isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void aHandlerBreakingARuleMakesItsWorkflowAnInvalidWorkflowDefinition() {
		InvalidWorkflowDefinitionException ex = catchThrowableOfType(InvalidWorkflowDefinitionException.class,
				() -> this.engines.builder().register(VoidQuery.class).build());
		assertThat(ex.workflowClassName()).isEqualTo(VoidQuery.class.getName());
		assertThat(ex).hasMessageContaining("@QueryMethod")
			.hasMessageContaining("status()")
			.hasMessageContaining("must return a value");
		// the stack is the rule's, not the conversion's
		assertThat(ex.getStackTrace()[0].getClassName()).endsWith("MessageHandlers");
	}

	@Test
	void twoWorkflowsOfOneTypeNameAreAnInvalidWorkflowDefinition() {
		InvalidWorkflowDefinitionException ex = catchThrowableOfType(InvalidWorkflowDefinitionException.class,
				() -> this.engines.builder().register(FirstTwin.class, SecondTwin.class).build());
		assertThat(ex.workflowClassName()).isEqualTo(SecondTwin.class.getName());
		assertThat(ex).hasMessageContaining("Workflow type 'twin' is declared by both");
	}

	@Test
	void anActivityMethodWhosePayloadCannotBeRecordedIsAnInvalidActivityDefinition() {
		InvalidActivityDefinitionException ex = catchThrowableOfType(InvalidActivityDefinitionException.class,
				() -> this.engines.builder().registerActivities(new Uploads()).build());
		assertThat(ex.activityClassName()).isEqualTo(Uploads.class.getName());
		assertThat(ex).hasMessageContaining("upload(java.io.InputStream)")
			.hasMessageContaining("cannot be a durable payload")
			.isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void anInvalidActivityMethodDurationIsAnInvalidActivityDefinition() {
		InvalidActivityDefinitionException ex = catchThrowableOfType(InvalidActivityDefinitionException.class,
				() -> this.engines.builder().registerActivities(new BadTimeout()).build());
		assertThat(ex.activityClassName()).isEqualTo(BadTimeout.class.getName());
		assertThat(ex).hasMessageContaining("invalid ISO-8601 duration '30 seconds'");
		assertThat(ex.getCause()).isNotNull();
	}

	@Test
	void aBeanThatIsNoActivityIsAnInvalidActivityDefinition() {
		InvalidActivityDefinitionException ex = catchThrowableOfType(InvalidActivityDefinitionException.class,
				() -> this.engines.builder().registerActivities(new NotAnActivity()).build());
		assertThat(ex.activityClassName()).isEqualTo(NotAnActivity.class.getName());
		assertThat(ex).hasMessageContaining("is not an activity");
	}

}
