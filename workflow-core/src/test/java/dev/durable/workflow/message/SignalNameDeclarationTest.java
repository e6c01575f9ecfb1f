package dev.durable.workflow.message;

import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.durable.workflow.Signal;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.engine.WorkflowTypeInfo;
import dev.durable.workflow.payload.EncodedValue;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.testsupport.HistoryReplay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Signal names a workflow takes with {@code Workflows.receive} are declared
 * ({@code @Workflow(receives)} or a {@code static final Signal} field): a client's signal
 * to a name nothing takes is rejected with {@link UnknownHandlerException} and stores
 * nothing, and workflow code receiving an undeclared name fails its task.
 */
@Timeout(120)
class SignalNameDeclarationTest {

	/** An approver's answer. */
	public record Decision(boolean approved, String by) {
	}

	/** Declarations shared through an interface: its fields are static final. */
	public interface Escalations {

		Signal<List<String>> ESCALATE = Signal.of("escalate", listOfStrings());

	}

	static Type listOfStrings() {
		try {
			return SignalNameDeclarationTest.class.getDeclaredMethod("stringsShape").getGenericReturnType();
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static List<String> stringsShape() {
		return List.of();
	}

	/**
	 * Receives an annotation-declared name, a typed one, and one declared by its
	 * interface.
	 */
	@Workflow(value = "sn-approval", receives = "comment")
	public static class Approval implements Escalations {

		public static final Signal<Decision> DECISION = Signal.of("decision", Decision.class);

		private final List<String> notes = new ArrayList<>();

		@WorkflowRun
		public String run(String expense) {
			String comment = Workflows.receive("comment", String.class);
			Decision decision = Workflows.receive(DECISION);
			List<String> escalated = Workflows.receive(ESCALATE, Duration.ofHours(1)).orElse(List.of());
			return expense + ": " + comment + ", " + (decision.approved() ? "approved" : "rejected") + " by "
					+ decision.by() + ", escalated to " + escalated + ", notes " + this.notes;
		}

		@SignalMethod
		public void note(String note) {
			this.notes.add(note);
		}

	}

	/**
	 * Takes any name through its dynamic handler; "answer" is declared, so it waits for
	 * receive.
	 */
	@Workflow(value = "sn-dynamic", receives = "answer")
	public static class AnyName {

		private final List<String> seen = new ArrayList<>();

		@WorkflowRun
		public String run() {
			String answer = Workflows.receive("answer", String.class);
			Workflows.await(() -> this.seen.size() == 2);
			return answer + " after " + this.seen;
		}

		@SignalMethod(dynamic = true)
		public void any(String name, EncodedValue payload) {
			this.seen.add(name + "=" + payload.get(String.class));
		}

	}

	/** Forgot to declare what it receives. */
	@Workflow("sn-forgot")
	public static class Forgot {

		@WorkflowRun
		public String run() {
			return "got " + Workflows.receive("approve", String.class);
		}

	}

	/** The same workflow, fixed: the declaration added. */
	@Workflow(value = "sn-forgot", receives = "approve")
	public static class Fixed {

		@WorkflowRun
		public String run() {
			return "got " + Workflows.receive("approve", String.class);
		}

	}

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	private WorkflowEngine worker() {
		return this.engines.start(this.engines.builder().register(Approval.class, AnyName.class));
	}

	private int rows(String table) {
		return this.engines.count(table);
	}

	// ---- rejected
	// --------------------------------------------------------------------------------

	@Test
	void aTypoIsRejectedAndNothingIsStored() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client().start(Approval::run, "taxi", StartOptions.withId("typo"));
		await().until(() -> handle.describe().workflowTasks() == 1);
		int history = handle.history().size();
		Map<String, Object> before = runRow("typo");

		assertThatThrownBy(() -> handle.signal("coment", "looks fine")).isInstanceOf(UnknownHandlerException.class)
			.hasMessageContaining("sn-approval")
			.hasMessageContaining("'coment'")
			.hasMessageContaining("comment")
			.hasMessageContaining("decision")
			.hasMessageContaining("escalate")
			.hasMessageContaining("note");
		assertThatThrownBy(() -> handle.signal("coment", "looks fine", "key-1"))
			.isInstanceOf(UnknownHandlerException.class);
		assertThatThrownBy(() -> engine.client().handle("typo").signal("decison", new Decision(true, "ann")))
			.isInstanceOf(UnknownHandlerException.class);
		assertThatThrownBy(() -> handle.signalEncoded("coment", (type) -> "looks fine", "key-2"))
			.isInstanceOf(UnknownHandlerException.class);

		assertThat(rows("inbox")).isZero();
		assertThat(rows("dedup")).isZero();
		assertThat(runRow("typo")).as("pending input and inbox sequence").isEqualTo(before);
		assertThat(handle.history()).hasSize(history);
		// the key of a rejected send is not used up: the same key sends once the name is
		// right
		handle.signal("comment", "looks fine", "key-1");
		await().until(() -> handle.history().stream().anyMatch((e) -> e.type().equals("SIGNAL_RECEIVED")));
	}

	@Test
	void signalWithStartToAnUnknownNameStartsNothing() {
		WorkflowEngine engine = worker();
		assertThatThrownBy(() -> engine.client()
			.signalWithStart(Approval::run, "taxi", StartOptions.withId("sws-typo"), "coment", "x"))
			.isInstanceOf(UnknownHandlerException.class)
			.hasMessageContaining("'coment'");
		assertThatThrownBy(() -> engine.client()
			.signalWithStart("sn-approval", "taxi", StartOptions.withId("sws-typo"), "coment", "x"))
			.isInstanceOf(UnknownHandlerException.class);
		assertThat(rows("workflow_run")).isZero();
		assertThat(rows("inbox")).isZero();
		assertThat(rows("dedup")).isZero();

		WorkflowHandle<String> handle = engine.client()
			.signalWithStart(Approval::run, "taxi", StartOptions.withId("sws-typo"), Approval.DECISION,
					new Decision(false, "bob"));
		handle.signal("comment", "too dear");
		handle.signal(Escalations.ESCALATE, List.of());
		assertThat(handle.result(Duration.ofSeconds(20)))
			.isEqualTo("taxi: too dear, rejected by bob, escalated to []," + " notes []");
	}

	// ---- accepted
	// --------------------------------------------------------------------------------

	@Test
	void declaredNamesAreReceivedWithTheirDeclaredTypesAndReplay() {
		WorkflowEngine engine = worker();
		WorkflowHandle<String> handle = engine.client().start(Approval::run, "hotel", StartOptions.withId("declared"));
		handle.signal("note", "urgent");
		handle.signal("comment", "fine");
		// a gateway (the REST API) is asked for the Signal field's type to convert its
		// body to
		List<Type> asked = new ArrayList<>();
		handle.signalEncoded("decision", (type) -> {
			asked.add(type);
			return new Decision(true, "carol");
		}, null);
		assertThat(asked).containsExactly(Decision.class);
		handle.signal(Escalations.ESCALATE, List.of("cfo", "ceo"), "escalate-1");
		handle.signal(Escalations.ESCALATE, List.of("cfo", "ceo"), "escalate-1");

		assertThat(handle.result(Duration.ofSeconds(20)))
			.isEqualTo("hotel: fine, approved by carol, escalated to [cfo, ceo], notes [urgent]");
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.COMPLETED);
		Engines.assertReplays(engine, handle.runId());
		HistoryReplay.replay(Approval.class, handle.history(), (type) -> new Approval());
	}

	@Test
	void aDynamicHandlerTakesAnyNameButADeclaredOneWaitsForReceive() {
		WorkflowEngine engine = worker();
		WorkflowHandle<Object> handle = engine.client().start("sn-dynamic", null, StartOptions.withId("dynamic"));
		handle.signal("whatever", "1");
		handle.signal("answer", "42");
		handle.signal("anything-else", "2");
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("42 after [whatever=1, anything-else=2]");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void theTypesViewListsTheDeclaredNames() {
		WorkflowEngine engine = worker();
		WorkflowTypeInfo info = engine.workflowType("sn-approval").orElseThrow();
		assertThat(info.receives()).containsExactly(new WorkflowTypeInfo.Receive("comment", null),
				new WorkflowTypeInfo.Receive("decision", Decision.class),
				new WorkflowTypeInfo.Receive("escalate", listOfStrings()));
		assertThat(info.acceptsSignal("note")).isTrue();
		assertThat(info.acceptsSignal("decision")).isTrue();
		assertThat(info.acceptsSignal("coment")).isFalse();
		assertThat(engine.workflowType("sn-dynamic").orElseThrow().acceptsSignal("anything")).isTrue();
	}

	// ---- undeclared receive
	// -----------------------------------------------------------------------

	@Test
	void receivingAnUndeclaredNameFailsTheTaskUntilTheDeclarationIsAdded() {
		WorkflowEngine first = this.engines.start(this.engines.builder().register(Forgot.class));
		WorkflowHandle<String> handle = first.client().start(Forgot::run, StartOptions.withId("forgot"));
		await().until(() -> handle.describe().taskFailure() != null);
		assertThat(handle.describe().taskFailure()).contains("IllegalStateException")
			.contains("sn-forgot")
			.contains("'approve'")
			.contains("@Workflow(receives = \"approve\")")
			.contains("Signal");
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		// nor can a client send it: the name is not declared
		assertThatThrownBy(() -> handle.signal("approve", "yes")).isInstanceOf(UnknownHandlerException.class);

		first.shutdown();
		WorkflowEngine second = this.engines.start(this.engines.builder().register(Fixed.class));
		second.client().handle("forgot").signal("approve", "yes");
		this.engines.clock.advance(Duration.ofMinutes(1));
		assertThat(second.client().handle("forgot", String.class).result(Duration.ofSeconds(20))).isEqualTo("got yes");
		Engines.assertReplays(second, handle.runId());
	}

	// ---- registration
	// ----------------------------------------------------------------------------

	@Workflow(value = "sn-blank", receives = " ")
	public static class BlankName {

		@WorkflowRun
		public void run() {
		}

	}

	@Workflow("sn-two-types")
	public static class TwoTypes {

		public static final Signal<String> AS_TEXT = Signal.of("amount", String.class);

		public static final Signal<Long> AS_NUMBER = Signal.of("amount", Long.class);

		@WorkflowRun
		public void run() {
		}

	}

	@Workflow(value = "sn-clash", receives = "cancelOrder")
	public static class ClashesWithHandler {

		@WorkflowRun
		public void run() {
		}

		@SignalMethod
		public void cancelOrder() {
		}

	}

	@Workflow("sn-instance-field")
	public static class InstanceField {

		public final Signal<String> perRun = Signal.of("perRun", String.class);

		@WorkflowRun
		public void run() {
		}

	}

	@Workflow("sn-null-field")
	public static class NullField {

		public static final Signal<String> MISSING = null;

		@WorkflowRun
		public void run() {
		}

	}

	@Workflow("sn-thread")
	public static class ThreadPayload {

		public static final Signal<Thread> WORKER = Signal.of("worker", Thread.class);

		@WorkflowRun
		public void run() {
		}

	}

	@Test
	void badDeclarationsAreRegistrationErrors() {
		assertThatThrownBy(() -> this.engines.builder().register(BlankName.class).build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("blank");
		assertThatThrownBy(() -> this.engines.builder().register(TwoTypes.class).build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("'amount'")
			.hasMessageContaining("java.lang.String")
			.hasMessageContaining("java.lang.Long");
		assertThatThrownBy(() -> this.engines.builder().register(ClashesWithHandler.class).build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("'cancelOrder'")
			.hasMessageContaining("@SignalMethod");
		assertThatThrownBy(() -> this.engines.builder().register(InstanceField.class).build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("perRun")
			.hasMessageContaining("static final");
		assertThatThrownBy(() -> this.engines.builder().register(NullField.class).build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("MISSING is null");
		assertThatThrownBy(() -> this.engines.builder().register(ThreadPayload.class).build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("WORKER");
		assertThatThrownBy(() -> Signal.of(" ", String.class)).isInstanceOf(IllegalArgumentException.class);
		assertThat(Signal.of("a", String.class)).isEqualTo(Signal.of("a", String.class))
			.isNotEqualTo(Signal.of("a", Long.class));
	}

	private Map<String, Object> runRow(String workflowId) {
		return this.engines.jdbc()
			.queryForMap("SELECT pending_input, inbox_seq FROM " + this.engines.schema
					+ ".workflow_run WHERE workflow_id = ?", workflowId);
	}

}
