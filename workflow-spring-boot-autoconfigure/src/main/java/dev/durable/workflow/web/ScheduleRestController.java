package dev.durable.workflow.web;

import java.net.URI;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpEntity;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
import dev.durable.workflow.client.schedule.ScheduleActionResult;
import dev.durable.workflow.client.schedule.ScheduleCalendar;
import dev.durable.workflow.client.schedule.ScheduleClient;
import dev.durable.workflow.client.schedule.ScheduleDescription;
import dev.durable.workflow.client.schedule.ScheduleOverlapPolicy;
import dev.durable.workflow.client.schedule.ScheduleSpec;
import dev.durable.workflow.client.schedule.ScheduleSummary;
import dev.durable.workflow.engine.WorkflowTypeInfo;
import dev.durable.workflow.failure.PayloadException;

/**
 * The generated REST endpoints for schedules: create, list, describe, update, pause,
 * unpause, trigger, backfill and delete. A schedule is the JSON of {@link Schedule}; its
 * action's input is checked against the workflow's input type when the schedule is
 * written, not when it fires.
 * <p>
 * A spec is the JSON of {@link ScheduleSpec}, with two conveniences: a cron string stands
 * for a calendar in {@code "calendars"} and {@code "skip"}
 * ({@link ScheduleCalendar#cron}), and the single-source form of earlier versions
 * ({@code "cronExpression"}, or {@code "interval"} with {@code "offset"}) is still
 * accepted.
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}/schedules")
public class ScheduleRestController {

	private final WorkflowClient client;

	private final WorkflowTypes types;

	private final WebPayloads payloads;

	private final WebAccess access;

	public ScheduleRestController(WorkflowClient client, WorkflowTypes types, WebPayloads payloads, WebAccess access) {
		this.client = client;
		this.types = types;
		this.payloads = payloads;
		this.access = access;
	}

	/**
	 * A schedule created.
	 *
	 * @param scheduleId its id
	 */
	record Created(String scheduleId) {
	}

	/**
	 * A note for pause and unpause.
	 *
	 * @param note the note
	 */
	record Note(@Nullable String note) {
	}

	/**
	 * A trigger or backfill request.
	 *
	 * @param overlapPolicy the overlap policy for these firings, or {@code null} for the
	 * schedule's
	 * @param start backfill: the first nominal time (inclusive)
	 * @param end backfill: the end of the range (exclusive)
	 */
	record Firing(@Nullable ScheduleOverlapPolicy overlapPolicy, @Nullable Instant start, @Nullable Instant end) {
	}

	@PostMapping
	ResponseEntity<Created> create(HttpEntity<byte @Nullable []> body, UriComponentsBuilder uris) {
		this.access.checkWritable();
		JsonNode request = this.payloads.parse(body);
		WebPayloads.refuseNul(request, "schedule", "action.input");
		if (!(request instanceof ObjectNode object) || !object.path("scheduleId").isString()) {
			throw new PayloadException(
					"The body must be a schedule with a \"scheduleId\": {\"scheduleId\", \"spec\","
							+ " \"action\", \"overlapPolicy\"?, \"catchupWindow\"?, \"paused\"?, \"note\"?}",
					false, null);
		}
		String scheduleId = object.path("scheduleId").asString();
		ObjectNode fields = object.deepCopy();
		fields.remove("scheduleId");
		schedules().create(scheduleId, schedule(fields));
		URI location = uris.path(this.access.basePath() + "/schedules/{id}").buildAndExpand(scheduleId).toUri();
		return ResponseEntity.created(location).body(new Created(scheduleId));
	}

	@GetMapping
	List<ScheduleSummary> list() {
		return schedules().list();
	}

	@GetMapping("/{scheduleId}")
	ScheduleDescription describe(@PathVariable String scheduleId) {
		return schedules().describe(scheduleId);
	}

	@PutMapping("/{scheduleId}")
	ScheduleDescription update(@PathVariable String scheduleId, HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		JsonNode request = this.payloads.parse(body);
		WebPayloads.refuseNul(request, "schedule", "action.input");
		Schedule replacement = schedule(request);
		schedules().update(scheduleId, (current) -> replacement);
		return schedules().describe(scheduleId);
	}

	@PostMapping("/{scheduleId}/pause")
	ScheduleDescription pause(@PathVariable String scheduleId, HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		schedules().pause(scheduleId, note(body));
		return schedules().describe(scheduleId);
	}

	@PostMapping("/{scheduleId}/unpause")
	ScheduleDescription unpause(@PathVariable String scheduleId, HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		schedules().unpause(scheduleId, note(body));
		return schedules().describe(scheduleId);
	}

	@PostMapping("/{scheduleId}/trigger")
	ScheduleActionResult trigger(@PathVariable String scheduleId, HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		return schedules().trigger(scheduleId, firing(body).overlapPolicy());
	}

	@PostMapping("/{scheduleId}/backfill")
	List<ScheduleActionResult> backfill(@PathVariable String scheduleId, HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		Firing firing = firing(body);
		if (firing.start() == null || firing.end() == null) {
			throw new PayloadException("A backfill needs \"start\" and \"end\" (ISO-8601 instants)", false, null);
		}
		return schedules().backfill(scheduleId, firing.start(), firing.end(), firing.overlapPolicy());
	}

	@DeleteMapping("/{scheduleId}")
	ResponseEntity<Void> delete(@PathVariable String scheduleId) {
		this.access.checkWritable();
		schedules().delete(scheduleId);
		return ResponseEntity.noContent().build();
	}

	private ScheduleClient schedules() {
		return this.client.schedules();
	}

	/** Reads a schedule and converts its action's input to the workflow's input type. */
	private Schedule schedule(JsonNode node) {
		if (node instanceof ObjectNode object && object.get("spec") instanceof ObjectNode spec) {
			object.set("spec", spec(spec));
		}
		Schedule schedule = (Schedule) this.payloads.convert(node, Schedule.class, "schedule");
		if (schedule == null) {
			throw new PayloadException("The body must be a schedule", false, null);
		}
		ScheduleAction action = schedule.action();
		WorkflowTypeInfo definition = this.types.definition(action.workflowType());
		Object input = this.payloads.payload(node.path("action").get("input"), definition.inputType(),
				"input of workflow " + definition.name(), "action.input");
		return schedule.withAction(new ScheduleAction(action.workflowType(), input, action.workflowIdPrefix(),
				action.taskQueue(), action.executionTimeout(), action.runTimeout(), action.retryPolicy()));
	}

	/**
	 * The spec in the JSON of {@link ScheduleSpec}: legacy fields moved into the lists,
	 * cron strings as calendars.
	 */
	private JsonNode spec(ObjectNode given) {
		ObjectNode spec = given.deepCopy();
		JsonNode cron = spec.remove("cronExpression");
		if (cron != null && !cron.isNull()) {
			array(spec, "cronExpressions").add(cron);
		}
		JsonNode interval = spec.remove("interval");
		JsonNode offset = spec.remove("offset");
		if (interval != null && !interval.isNull()) {
			ObjectNode every = array(spec, "intervals").addObject();
			every.set("every", interval);
			if (offset != null) {
				every.set("offset", offset);
			}
		}
		else if (offset != null && !offset.isNull()) {
			throw new PayloadException("A schedule spec's \"offset\" goes with its \"interval\"", false, null);
		}
		for (String field : new String[] { "calendars", "skip" }) {
			if (spec.get(field) instanceof ArrayNode calendars) {
				for (int i = 0; i < calendars.size(); i++) {
					if (calendars.get(i).isString()) {
						calendars.set(i, calendar(calendars.get(i).asString(), field));
					}
				}
			}
		}
		return spec;
	}

	private ArrayNode array(ObjectNode spec, String field) {
		if (spec.get(field) instanceof ArrayNode existing) {
			return existing;
		}
		if (spec.has(field) && !spec.get(field).isNull()) {
			throw new PayloadException("A schedule spec's \"" + field + "\" must be an array", false, null);
		}
		return spec.putArray(field);
	}

	private JsonNode calendar(String cron, String field) {
		try {
			return this.payloads.mapper().valueToTree(ScheduleCalendar.cron(cron));
		}
		catch (IllegalArgumentException ex) {
			throw new PayloadException("The payload is not a valid schedule: \"" + field + "\": " + ex.getMessage(),
					false, ex);
		}
	}

	private @Nullable String note(HttpEntity<byte @Nullable []> body) {
		JsonNode request = this.payloads.parse(body);
		WebPayloads.refuseNul(request, "note");
		Note note = (Note) this.payloads.convert(request, Note.class, "note ({\"note\"})");
		return (note != null) ? note.note() : null;
	}

	private Firing firing(HttpEntity<byte @Nullable []> body) {
		Firing firing = (Firing) this.payloads.convert(this.payloads.parse(body), Firing.class,
				"request ({\"overlapPolicy\"?, \"start\"?, \"end\"?})");
		return (firing != null) ? firing : new Firing(null, null, null);
	}

}
