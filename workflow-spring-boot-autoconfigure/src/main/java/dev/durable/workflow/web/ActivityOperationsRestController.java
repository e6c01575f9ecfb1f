package dev.durable.workflow.web;

import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.client.ActivityAttemptOptions;
import dev.durable.workflow.client.ActivityNotPendingException;
import dev.durable.workflow.client.ActivityOptionsUpdate;
import dev.durable.workflow.client.PendingActivity;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.failure.PayloadException;

/**
 * The generated REST endpoints that act on one pending activity of a run, by its id in
 * the run ({@code activityId} of the run's pending activities): pause, unpause, reset and
 * new options for the attempts to come. Without {@code ?runId=} the latest run of the
 * workflow id is meant. An activity the run does not wait for is a 404 problem with code
 * {@code ACTIVITY_NOT_PENDING}; a closed run a 409 {@code WORKFLOW_CLOSED}.
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}/workflows/{workflowId}/activities/{activityId}")
public class ActivityOperationsRestController {

	private final WorkflowClient client;

	private final WebPayloads payloads;

	private final WebAccess access;

	public ActivityOperationsRestController(WorkflowClient client, WebPayloads payloads, WebAccess access) {
		this.client = client;
		this.payloads = payloads;
		this.access = access;
	}

	/**
	 * The activity after a pause or unpause.
	 *
	 * @param workflowId the workflow id
	 * @param runId the run
	 * @param activityId the activity's id in the run
	 * @param paused whether it is paused now
	 * @param changed whether the request changed it (false: it was so already)
	 */
	record ActivityPauseState(String workflowId, UUID runId, long activityId, boolean paused, boolean changed) {
	}

	/**
	 * Why an activity is paused.
	 *
	 * @param reason the reason
	 */
	record PauseRequest(@Nullable String reason) {
	}

	/**
	 * A reset.
	 *
	 * @param keepHeartbeatDetails whether the next attempt still sees the last heartbeat
	 * details (the default), or starts without
	 */
	record ResetRequest(@Nullable Boolean keepHeartbeatDetails) {
	}

	/**
	 * The activity after a reset.
	 *
	 * @param workflowId the workflow id
	 * @param runId the run
	 * @param activityId the activity's id in the run
	 * @param keepHeartbeatDetails whether its heartbeat details were kept
	 */
	record ActivityReset(String workflowId, UUID runId, long activityId, boolean keepHeartbeatDetails) {
	}

	/**
	 * The activity's options after an update.
	 *
	 * @param workflowId the workflow id
	 * @param runId the run
	 * @param activityId the activity's id in the run
	 * @param options its options for the attempts to come
	 */
	record ActivityOptionsState(String workflowId, UUID runId, long activityId, ActivityAttemptOptions options) {
	}

	@PostMapping("/pause")
	ActivityPauseState pause(@PathVariable String workflowId, @PathVariable long activityId,
			@RequestParam(required = false) @Nullable UUID runId, HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		PauseRequest request = (PauseRequest) this.payloads.convert(checked(body), PauseRequest.class,
				"request ({\"reason\"})");
		WorkflowHandle<Object> handle = pinned(workflowId, runId);
		boolean changed = handle.pauseActivity(activityId, (request != null) ? request.reason() : null);
		return new ActivityPauseState(workflowId, handle.runId(), activityId, true, changed);
	}

	@PostMapping("/unpause")
	ActivityPauseState unpause(@PathVariable String workflowId, @PathVariable long activityId,
			@RequestParam(required = false) @Nullable UUID runId) {
		this.access.checkWritable();
		WorkflowHandle<Object> handle = pinned(workflowId, runId);
		return new ActivityPauseState(workflowId, handle.runId(), activityId, false,
				handle.unpauseActivity(activityId));
	}

	@PostMapping("/reset")
	ActivityReset reset(@PathVariable String workflowId, @PathVariable long activityId,
			@RequestParam(required = false) @Nullable UUID runId, HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		ResetRequest request = (ResetRequest) this.payloads.convert(checked(body), ResetRequest.class,
				"request ({\"keepHeartbeatDetails\"})");
		boolean keep = request == null || request.keepHeartbeatDetails() == null || request.keepHeartbeatDetails();
		WorkflowHandle<Object> handle = pinned(workflowId, runId);
		handle.resetActivity(activityId, keep);
		return new ActivityReset(workflowId, handle.runId(), activityId, keep);
	}

	/**
	 * New options: {@code startToCloseTimeout}, {@code scheduleToCloseTimeout},
	 * {@code heartbeatTimeout}, {@code scheduleToStartTimeout} (ISO-8601 durations) and
	 * {@code retryPolicy}, whose fields given replace those of the activity's current
	 * policy ({@code {"retryPolicy":{"maximumAttempts":10}}}).
	 */
	@PostMapping("/options")
	ActivityOptionsState options(@PathVariable String workflowId, @PathVariable long activityId,
			@RequestParam(required = false) @Nullable UUID runId, HttpEntity<byte @Nullable []> body) {
		this.access.checkWritable();
		JsonNode request = checked(body);
		if (!(request instanceof ObjectNode fields)) {
			throw new PayloadException("The request must be a JSON object of the options to change"
					+ " (retryPolicy, startToCloseTimeout, scheduleToCloseTimeout, heartbeatTimeout,"
					+ " scheduleToStartTimeout)", false, null);
		}
		WorkflowHandle<Object> handle = pinned(workflowId, runId);
		JsonNode policy = fields.get("retryPolicy");
		if (policy instanceof ObjectNode given) {
			// the fields given replace those of the current policy
			ObjectNode merged = (ObjectNode) this.payloads.tree(currentPolicy(handle, activityId));
			merged.setAll(given);
			fields.set("retryPolicy", merged);
		}
		ActivityOptionsUpdate update = (ActivityOptionsUpdate) this.payloads.convert(fields,
				ActivityOptionsUpdate.class, "activity options");
		ActivityAttemptOptions options = handle.updateActivityOptions(activityId, update);
		return new ActivityOptionsState(workflowId, handle.runId(), activityId, options);
	}

	private RetryPolicy currentPolicy(WorkflowHandle<Object> handle, long activityId) {
		PendingActivity activity = handle.describe()
			.pendingActivities()
			.stream()
			.filter((a) -> a.activityId() == activityId)
			.findFirst()
			.orElseThrow(() -> new ActivityNotPendingException(
					"Workflow " + handle.workflowId() + " has no pending activity " + activityId));
		return (activity.options() != null) ? activity.options().retryPolicy() : RetryPolicy.DEFAULT;
	}

	private JsonNode checked(HttpEntity<byte @Nullable []> body) {
		JsonNode request = this.payloads.parse(body);
		WebPayloads.refuseNul(request, "request");
		return request;
	}

	/** The handle of the run meant, pinned: every call of a request acts on one run. */
	private WorkflowHandle<Object> pinned(String workflowId, @Nullable UUID runId) {
		UUID run = ((runId != null) ? this.client.handle(workflowId, runId) : this.client.handle(workflowId)).runId();
		return this.client.handle(workflowId, run);
	}

}
