package dev.durable.workflow.autoconfigure.openapi;

import java.util.ArrayList;
import java.util.List;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.Schema;
import org.jspecify.annotations.Nullable;

import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleOverlapPolicy;

import static dev.durable.workflow.autoconfigure.openapi.Problem.ALREADY_STARTED;
import static dev.durable.workflow.autoconfigure.openapi.Problem.CONFLICT;
import static dev.durable.workflow.autoconfigure.openapi.Problem.EVENT_NOT_SET;
import static dev.durable.workflow.autoconfigure.openapi.Problem.INVALID_ID;
import static dev.durable.workflow.autoconfigure.openapi.Problem.INVALID_KEY;
import static dev.durable.workflow.autoconfigure.openapi.Problem.INVALID_OFFSET;
import static dev.durable.workflow.autoconfigure.openapi.Problem.INVALID_PAYLOAD;
import static dev.durable.workflow.autoconfigure.openapi.Problem.INVALID_TOKEN;
import static dev.durable.workflow.autoconfigure.openapi.Problem.MISSING_INPUT;
import static dev.durable.workflow.autoconfigure.openapi.Problem.QUERY_FAILED;
import static dev.durable.workflow.autoconfigure.openapi.Problem.SCHEDULE_EXISTS;
import static dev.durable.workflow.autoconfigure.openapi.Problem.SCHEDULE_NOT_FOUND;
import static dev.durable.workflow.autoconfigure.openapi.Problem.UNAVAILABLE;
import static dev.durable.workflow.autoconfigure.openapi.Problem.UNKNOWN_HANDLER;
import static dev.durable.workflow.autoconfigure.openapi.Problem.UNKNOWN_TYPE;
import static dev.durable.workflow.autoconfigure.openapi.Problem.UPDATE_FAILED;
import static dev.durable.workflow.autoconfigure.openapi.Problem.UPDATE_REJECTED;
import static dev.durable.workflow.autoconfigure.openapi.Problem.WORKFLOW_CLOSED;
import static dev.durable.workflow.autoconfigure.openapi.Problem.WORKFLOW_NOT_FOUND;

/**
 * The description of each generated endpoint springdoc found on the controllers, which it
 * cannot infer: the controllers read their bodies as bytes (to convert them to the
 * workflow's own types with one error model), answer 201/202/204 and problem details, and
 * take no body on GET.
 */
final class GenericEndpoints {

	static final String WORKFLOWS = "workflows";

	static final String SCHEDULES = "schedules";

	static final String ACTIVITIES = "activities";

	static final String QUEUES = "queues";

	private final Schemas schemas;

	private final Schema<?> problem;

	private final TypedSchemas typed;

	GenericEndpoints(Schemas schemas, Schema<?> problem, TypedSchemas typed) {
		this.schemas = schemas;
		this.problem = problem;
		this.typed = typed;
	}

	/**
	 * Describes an operation springdoc inferred, by its method and path below the base
	 * path.
	 * @return whether it is one of the generated endpoints
	 */
	boolean describe(String method, String path, Operation operation) {
		@Nullable Schema<?> inferred = inferred(operation);
		OperationDoc doc = new OperationDoc(operation, this.schemas, this.problem);
		List<Problem> problems = new ArrayList<>();
		switch (method + " " + path) {
			case "GET /workflow-types" -> {
				doc.describe(WORKFLOWS, "listWorkflowTypes", "The workflow types and their handlers", null)
					.answers(200, "The registered types", inferred);
			}
			case "POST /workflows" -> {
				doc.describe(WORKFLOWS, "startWorkflow", "Start a run (or signal-with-start)",
						"The body names the workflow type; its input is converted to the type's input. "
								+ "An Idempotency-Key header makes a retried start return the run it started.")
					.body(this.typed.startRequest(), true, "The start request, one shape per workflow type")
					.answers(201, "Started", inferred)
					.header(201, "Location", "The run's URL");
				problems.addAll(List.of(INVALID_PAYLOAD, UNKNOWN_TYPE, INVALID_ID, UNKNOWN_HANDLER, ALREADY_STARTED));
				problems.addAll(Problem.START);
			}
			case "GET /workflows" -> {
				doc.describe(WORKFLOWS, "listWorkflows", "List runs, newest first", null)
					.answers(200, "A page of runs", inferred);
				problems.add(INVALID_PAYLOAD);
			}
			case "GET /workflows/{workflowId}" -> {
				doc.describe(WORKFLOWS, "describeWorkflow", "A run's status, pending activities and details", null)
					.answers(200, "The run", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND));
			}
			case "GET /workflows/{workflowId}/waiting-on" -> {
				doc.describe(WORKFLOWS, "workflowWaitingOn", "What an open run waits for now",
						"An unpause, a queue, the retry of a failing task, activities with their next attempt, "
								+ "timers with when they fire, children, signals received by name, and conditions "
								+ "with the line of their await; empty for a closed run.")
					.answers(200, "The waits", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND));
			}
			case "GET /workflows/{workflowId}/current-details" -> {
				doc.describe(WORKFLOWS, "workflowCurrentDetails", "What a run's code says it is doing now",
						"The text its code last set with Workflows.setCurrentDetails, read as a query is.")
					.answers(200, "The current details, or null", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND));
			}
			case "GET /workflows/{workflowId}/history" -> {
				doc.describe(WORKFLOWS, "workflowHistory", "A run's history events", null)
					.answers(200, "The events, oldest first", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND));
			}
			case "GET /workflows/{workflowId}/result" -> {
				doc.describe(WORKFLOWS, "workflowResult", "A run's result, waiting up to ?wait= (ISO-8601)", null)
					.answers(200, "The run closed: its result, or how it failed", this.typed.result())
					.answers(202, "Still running", this.typed.running())
					.header(202, "Retry-After", "Seconds to wait before asking again");
				problems.addAll(List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND));
			}
			case "POST /workflows/{workflowId}/cancel" -> {
				doc.describe(WORKFLOWS, "cancelWorkflow", "Request cancellation of a run", null)
					.body(lifecycle(false), false, "An optional reason")
					.answers(202, "Cancellation requested", null);
				problems.addAll(List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND, WORKFLOW_CLOSED));
				problems.addAll(Problem.OPERATION);
			}
			case "POST /workflows/{workflowId}/terminate" -> {
				doc.describe(WORKFLOWS, "terminateWorkflow", "Terminate a run at once", null)
					.body(lifecycle(false), false, "An optional reason")
					.answers(204, "Terminated", null);
				problems.addAll(List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND, WORKFLOW_CLOSED));
				problems.addAll(Problem.OPERATION);
			}
			case "POST /workflows/{workflowId}/pause", "POST /workflows/{workflowId}/unpause" -> {
				boolean pause = path.endsWith("/pause");
				doc.describe(WORKFLOWS, pause ? "pauseWorkflow" : "unpauseWorkflow",
						pause ? "Pause a run" : "Unpause a run",
						pause ? "The run takes no workflow task and starts no activity attempt until unpaused; "
								+ "signals, updates and cancel requests wait, queries are answered, due timers fire "
								+ "after the unpause."
								: "The run takes up what arrived while it was paused and starts the activity attempts "
										+ "the pause held back.");
				if (pause) {
					doc.body(lifecycle(false), false, "An optional reason, shown with the run");
				}
				doc.answers(200, "The run's pause state, and whether the request changed it", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND, WORKFLOW_CLOSED));
				problems.addAll(Problem.OPERATION);
			}
			case "POST /workflows/{workflowId}/activities/{activityId}/pause",
					"POST /workflows/{workflowId}/activities/{activityId}/unpause" -> {
				boolean pause = path.endsWith("/pause");
				doc.describe(WORKFLOWS, pause ? "pauseActivity" : "unpauseActivity",
						pause ? "Pause a pending activity of a run" : "Unpause a pending activity of a run",
						pause ? "No new attempt of the activity starts until it is unpaused or reset; an attempt "
								+ "running runs on, sees the pause at its next heartbeat, and its outcome counts."
								: "Its next attempt starts when due; an activity its retry policy paused after its "
										+ "attempts were exhausted gets a new round of attempts.");
				if (pause) {
					doc.body(lifecycle(false), false, "An optional reason, shown with the activity");
				}
				doc.answers(200, "The activity's pause state, and whether the request changed it", inferred);
				problems.addAll(
						List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND, Problem.ACTIVITY_NOT_PENDING, WORKFLOW_CLOSED));
				problems.addAll(Problem.OPERATION);
			}
			case "POST /workflows/{workflowId}/activities/{activityId}/reset" -> {
				doc.describe(WORKFLOWS, "resetActivity", "Reset a pending activity's attempts",
						"Its next attempt is attempt 1 and starts at once (after a running attempt, if it fails); "
								+ "a pause is lifted.")
					.body(this.schemas.object()
						.addProperty("keepHeartbeatDetails", this.schemas.typed("boolean")
							.description("Whether the next attempt sees the last heartbeat details (default true)")),
							false, "Whether to keep the heartbeat details")
					.answers(200, "The activity reset", inferred);
				problems.addAll(
						List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND, Problem.ACTIVITY_NOT_PENDING, WORKFLOW_CLOSED));
				problems.addAll(Problem.OPERATION);
			}
			case "POST /workflows/{workflowId}/activities/{activityId}/options" -> {
				doc.describe(WORKFLOWS, "updateActivityOptions", "Change a pending activity's options",
						"For the attempts to come: timeouts as ISO-8601 durations, and retry policy fields, which "
								+ "replace those of its current policy.")
					.body(activityOptions(), true, "The options to change")
					.answers(200, "The activity's options from now on", inferred);
				problems.addAll(
						List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND, Problem.ACTIVITY_NOT_PENDING, WORKFLOW_CLOSED));
				problems.addAll(Problem.OPERATION);
			}
			case "POST /workflows/{workflowId}/reset" -> {
				doc.describe(WORKFLOWS, "resetWorkflow", "Start a new run from an event of a run's history", null)
					.body(lifecycle(true), true, "The event whose workflow task runs again, and a reason")
					.answers(200, "The new run", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND, CONFLICT));
				problems.addAll(Problem.OPERATION);
			}
			case "POST /workflows/{workflowId}/signals/{name}" -> {
				doc.describe(WORKFLOWS, "signalWorkflow", "Send a signal of any name",
						"For a dynamic signal handler or a name Workflows.receive waits for; the named handlers "
								+ "have their own operations with their payload types.")
					.body(this.schemas.any("The payload"), false, "The payload")
					.answers(202, "Signal recorded", null);
				problems.addAll(
						List.of(INVALID_PAYLOAD, MISSING_INPUT, WORKFLOW_NOT_FOUND, UNKNOWN_HANDLER, WORKFLOW_CLOSED));
				problems.addAll(Problem.OPERATION);
			}
			case "GET /workflows/{workflowId}/queries/{name}", "POST /workflows/{workflowId}/queries/{name}" -> {
				boolean get = method.equals("GET");
				doc.describe(WORKFLOWS, get ? "queryWorkflow" : "queryWorkflowWithPayload", "Query a run by name",
						"For a dynamic query handler; the named handlers have their own operations.")
					.answers(200, "The query's result", this.schemas.any("The result"));
				if (!get) {
					doc.body(this.schemas.any("The payload"), false, "The payload");
					problems.addAll(List.of(Problem.TOO_LARGE, Problem.NOT_JSON));
				}
				problems
					.addAll(List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND, UNKNOWN_HANDLER, QUERY_FAILED, UNAVAILABLE));
			}
			case "POST /workflows/{workflowId}/updates/{name}" -> {
				doc.describe(WORKFLOWS, "updateWorkflow", "Send an update of any name",
						"For a dynamic update handler; the named handlers have their own operations.")
					.body(this.schemas.any("The payload"), false, "The payload");
				this.typed.updateOutcome(doc, this.schemas.any("The result"));
				problems.addAll(List.of(INVALID_PAYLOAD, MISSING_INPUT, WORKFLOW_NOT_FOUND, UNKNOWN_HANDLER,
						WORKFLOW_CLOSED, UPDATE_FAILED, UPDATE_REJECTED));
				problems.addAll(Problem.OPERATION);
			}
			case "GET /workflows/{workflowId}/updates/{updateId}" -> {
				doc.describe(WORKFLOWS, "updateOutcome", "An update's outcome by its id, waiting up to ?wait=", null);
				this.typed.updateOutcome(doc, this.typed.updateResults());
				problems.addAll(List.of(INVALID_PAYLOAD, WORKFLOW_NOT_FOUND, UPDATE_FAILED, UPDATE_REJECTED));
			}
			case "GET /workflows/{workflowId}/events/{key}" -> {
				doc.describe(WORKFLOWS, "workflowEvent", "An event's value (Workflows.setEvent)",
						"Waits up to ?wait= (ISO-8601, at most a minute) for the key to be set; answers at once for a "
								+ "closed run.")
					.answers(200, "The key and its value",
							this.schemas.object()
								.addProperty("key", this.schemas.string("The event's key"))
								.addProperty("value", this.schemas.any("The value the workflow set")));
				problems.addAll(List.of(INVALID_PAYLOAD, INVALID_KEY, WORKFLOW_NOT_FOUND, EVENT_NOT_SET, UNAVAILABLE));
			}
			case "GET /workflows/{workflowId}/streams/{key}" -> {
				doc.describe(WORKFLOWS, "workflowStream", "A stream (Workflows.stream) as Server-Sent Events",
						"Each value is an event whose id is its offset and whose data is the value as JSON, in order "
								+ "from ?from= (default 0); a client that reconnects with Last-Event-ID goes on after "
								+ "that offset. Live until the workflow closes the stream or the run closes; then an "
								+ "event named end, and the response ends.")
					.answersEventStream(200, "The values, then an end event");
				problems.addAll(List.of(INVALID_KEY, INVALID_OFFSET, WORKFLOW_NOT_FOUND, UNAVAILABLE));
			}
			case "POST /schedules" -> {
				doc.describe(SCHEDULES, "createSchedule", "Create a schedule",
						"Its action's input is checked against the workflow type's input now, not when it fires.")
					.body(createSchedule(), true, "The schedule and its id")
					.answers(201, "Created", inferred)
					.header(201, "Location", "The schedule's URL");
				problems.addAll(List.of(INVALID_PAYLOAD, MISSING_INPUT, UNKNOWN_TYPE, SCHEDULE_EXISTS));
				problems.addAll(Problem.OPERATION);
			}
			case "GET /schedules" -> doc.describe(SCHEDULES, "listSchedules", "List schedules", null)
				.answers(200, "The schedules", inferred);
			case "GET /schedules/{scheduleId}" -> {
				doc.describe(SCHEDULES, "describeSchedule", "A schedule, its state and recent actions", null)
					.answers(200, "The schedule", inferred);
				problems.add(SCHEDULE_NOT_FOUND);
			}
			case "PUT /schedules/{scheduleId}" -> {
				doc.describe(SCHEDULES, "updateSchedule", "Replace a schedule", null)
					.body(this.schemas.of(Schedule.class), true, "The new schedule")
					.answers(200, "The schedule now", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, MISSING_INPUT, UNKNOWN_TYPE, SCHEDULE_NOT_FOUND));
				problems.addAll(Problem.OPERATION);
			}
			case "POST /schedules/{scheduleId}/pause", "POST /schedules/{scheduleId}/unpause" -> {
				boolean pause = path.endsWith("/pause");
				doc.describe(SCHEDULES, pause ? "pauseSchedule" : "unpauseSchedule",
						pause ? "Pause a schedule" : "Unpause a schedule", null)
					.body(note(), false, "An optional note")
					.answers(200, "The schedule now", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, SCHEDULE_NOT_FOUND));
				problems.addAll(Problem.OPERATION);
			}
			case "POST /schedules/{scheduleId}/trigger" -> {
				doc.describe(SCHEDULES, "triggerSchedule", "Run a schedule's action now", null)
					.body(firing(false), false, "An optional overlap policy for this firing")
					.answers(200, "What the firing did", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, SCHEDULE_NOT_FOUND));
				problems.addAll(Problem.OPERATION);
			}
			case "POST /schedules/{scheduleId}/backfill" -> {
				doc.describe(SCHEDULES, "backfillSchedule", "Run a schedule's action for each time in a past range",
						null)
					.body(firing(true), true, "The range, and an optional overlap policy")
					.answers(200, "What each firing did", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, SCHEDULE_NOT_FOUND));
				problems.addAll(Problem.OPERATION);
			}
			case "DELETE /schedules/{scheduleId}" -> {
				doc.describe(SCHEDULES, "deleteSchedule", "Delete a schedule", null).answers(204, "Deleted", null);
				problems.addAll(List.of(SCHEDULE_NOT_FOUND, Problem.UNAUTHENTICATED, Problem.READ_ONLY,
						Problem.OPERATION_DISABLED, Problem.ROLE_REQUIRED));
			}
			case "POST /activities/complete", "POST /activities/heartbeat", "POST /activities/fail" -> {
				String verb = path.substring(path.lastIndexOf('/') + 1);
				doc.describe(ACTIVITIES, verb + "Activity", switch (verb) {
					case "complete" -> "Complete an activity attempt by its task token";
					case "fail" -> "Fail an activity attempt by its task token";
					default -> "Record a heartbeat of an activity attempt by its task token";
				}, "For attempts that called ActivityContext.doNotCompleteOnReturn(). \"applied\": false when the "
						+ "attempt's outcome was already recorded or it is no longer awaited, so a retry is safe.")
					.body(activityRequest(verb), true, "The token and the " + verb + " details")
					.answers(200, "Whether the request changed the attempt", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, INVALID_TOKEN));
				problems.addAll(Problem.OPERATION);
			}
			case "GET /queues" -> doc.describe(QUEUES, "listQueues", "The flow-control and activity task queues", null)
				.answers(200, "What each queue holds now", inferred);
			case "POST /debounces" -> {
				doc.describe(WORKFLOWS, "debounceStart", "Collapse calls with one key into one start",
						"Each call opens or extends the key's window; when the window ends (delay after the last "
								+ "call, at most maxWait after the first), one run starts with the last call's input.")
					.body(debounceRequest(), true, "The call")
					.answers(202, "The window the call joined", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, UNKNOWN_TYPE, INVALID_ID));
				problems.addAll(Problem.START);
			}
			case "GET /replay-check" -> {
				doc.describe(WORKFLOWS, "checkReplay", "Replay stored runs on this node's code",
						"Replays the most recently started runs of each workflow type (open ones first) on the "
								+ "workflow code of the node that answers, and reports every run that does not "
								+ "replay with its first mismatch. Changes nothing: ask a node of a new build before "
								+ "it takes the runs.")
					.answers(200, "How many runs of each type replayed, and those that did not", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, UNKNOWN_TYPE));
			}
			case "POST /replay-check" -> {
				doc.describe(WORKFLOWS, "checkReplayOfHistories", "Replay exported histories on this node's code",
						"Each history (as GET /workflows/{workflowId}/history returns it) replays on the node's "
								+ "class of the type its start names. Changes nothing.")
					.body(exportedHistories(), true, "The histories by a name of the caller's (a file name)")
					.answers(200, "How many histories of each type replayed, and those that did not", inferred);
				problems.addAll(List.of(INVALID_PAYLOAD, Problem.TOO_LARGE, Problem.NOT_JSON));
			}
			case "GET /overview" -> doc
				.describe(WORKFLOWS, "overview", "Runs by type and status, backlog, nodes and queues",
						"What the dashboard's overview shows (the actuator endpoint workflows tells the same)")
				.answers(200, "The counts, the failing and stuck runs, the nodes and the queues", inferred);
			default -> {
				return false;
			}
		}
		if (method.equals("GET")) {
			doc.noBody();
		}
		problems.add(UNAVAILABLE);
		doc.problems(problems);
		return true;
	}

	private Schema<?> exportedHistories() {
		Schema<?> schema = this.schemas.object();
		schema.setAdditionalProperties(
				this.schemas.any("A history: the array GET /workflows/{workflowId}/history " + "returns"));
		return schema;
	}

	private Schema<?> debounceRequest() {
		Schema<?> schema = this.schemas.object();
		schema.addProperty("type", this.schemas.string("The workflow type"));
		schema.addProperty("key",
				this.schemas.string("The key calls collapse by: 1-128 letters, digits and . _ : @ -"));
		schema.addProperty("delay", this.schemas.string("ISO-8601 duration: the window after the last call"));
		schema.addProperty("maxWait",
				this.schemas.string("ISO-8601 duration: the longest a window stays open after its first call"));
		schema.addProperty("input", this.schemas.any("The workflow's input (the last call's wins)"));
		schema.addProperty("workflowId", this.schemas.string("The run's workflow id; generated when absent"));
		schema.addProperty("options", this.schemas.any("Start options, as for POST /workflows"));
		schema.setRequired(List.of("type", "key", "delay", "maxWait"));
		return schema;
	}

	/**
	 * The body schema springdoc inferred for the 200 response (the controller method's
	 * return type).
	 */
	static @Nullable Schema<?> inferred(Operation operation) {
		if (operation.getResponses() == null || operation.getResponses().get("200") == null
				|| operation.getResponses().get("200").getContent() == null) {
			return null;
		}
		return operation.getResponses()
			.get("200")
			.getContent()
			.values()
			.stream()
			.map(io.swagger.v3.oas.models.media.MediaType::getSchema)
			.findFirst()
			.orElse(null);
	}

	private Schema<?> lifecycle(boolean reset) {
		Schema<?> schema = this.schemas.object()
			.addProperty("reason", this.schemas.string("Why; stored in the history"));
		if (reset) {
			schema.addProperty("eventId",
					this.schemas.typed("integer")
						.format("int64")
						.description("The history event whose workflow task runs again"));
			schema.addRequiredItem("eventId");
		}
		return schema;
	}

	private Schema<?> activityOptions() {
		Schema<?> policy = this.schemas.object()
			.description("Retry policy fields to change (initialInterval, backoffCoefficient, maximumInterval, "
					+ "maximumAttempts, nonRetryableErrorTypes, pauseWhenExhausted)");
		return this.schemas.object()
			.addProperty("startToCloseTimeout", this.schemas.string("Maximum time of one attempt (ISO-8601)"))
			.addProperty("scheduleToCloseTimeout",
					this.schemas.string("Maximum time of all attempts from the first schedule (ISO-8601)"))
			.addProperty("heartbeatTimeout", this.schemas.string("Maximum time between heartbeats (ISO-8601)"))
			.addProperty("scheduleToStartTimeout",
					this.schemas.string("Maximum time a task-queue attempt waits to be claimed (ISO-8601)"))
			.addProperty("retryPolicy", policy);
	}

	private Schema<?> note() {
		return this.schemas.object().addProperty("note", this.schemas.string("A note shown with the schedule"));
	}

	private Schema<?> firing(boolean backfill) {
		Schema<?> schema = this.schemas.object().addProperty("overlapPolicy", overlapPolicy());
		if (backfill) {
			schema.addProperty("start", this.schemas.string("The first nominal time (inclusive)").format("date-time"))
				.addProperty("end", this.schemas.string("The end of the range (exclusive)").format("date-time"));
			schema.addRequiredItem("start");
			schema.addRequiredItem("end");
		}
		return schema;
	}

	private Schema<?> overlapPolicy() {
		return this.schemas.oneOfStrings(
				java.util.Arrays.stream(ScheduleOverlapPolicy.values()).map(Enum::name).toList(),
				"The overlap policy of these firings; the schedule's when absent");
	}

	private Schema<?> createSchedule() {
		Schema<?> schedule = this.schemas.of(Schedule.class);
		Schema<?> id = this.schemas.object().addProperty("scheduleId", this.schemas.string("The schedule's id"));
		id.addRequiredItem("scheduleId");
		Schema<?> both = this.schemas.any("A schedule with its id");
		both.addAllOfItem(id);
		if (schedule != null) {
			both.addAllOfItem(schedule);
		}
		return both;
	}

	private Schema<?> activityRequest(String verb) {
		Schema<?> schema = this.schemas.object()
			.addProperty("token", this.schemas.string("The task token from ActivityContext.taskToken()"));
		schema.addRequiredItem("token");
		switch (verb) {
			case "complete" -> schema.addProperty("result", this.schemas.any("The activity's result"));
			case "heartbeat" -> schema.addProperty("details", this.schemas.any("Progress details"));
			default -> {
				Schema<?> failure = this.schemas.object()
					.addProperty("type", this.schemas.string("The failure type, matched by non-retryable error types"))
					.addProperty("message", this.schemas.string("The message"))
					.addProperty("nonRetryable", this.schemas.typed("boolean").description("Never retried when true"))
					.addProperty("details", this.schemas.any("Details handed to the workflow with the failure"));
				failure.addRequiredItem("message");
				schema.addProperty("failure", failure);
				schema.addRequiredItem("failure");
			}
		}
		// a misspelt field is refused, not ignored
		schema.additionalProperties(false);
		return schema;
	}

}
