package dev.durable.workflow.internal.runtime;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.UpsertMemo;
import dev.durable.workflow.internal.history.Event.UpsertSearchAttributes;
import dev.durable.workflow.internal.history.Event.WorkflowAttributes;
import dev.durable.workflow.internal.history.EventType;
import dev.durable.workflow.internal.support.Attributes;

/**
 * The run's memo and search attributes: the values it started with (an input of its first
 * task) and the upserts its code recorded. An upsert is a command whose payload is the
 * patch as canonical JSON; on replay the code must issue the same patch. The task's
 * commit writes the resulting values to the visibility row.
 */
public final class VisibilityStates {

	private final CommandRecorder commands;

	private final UUID runId;

	private Map<String, Object> startSearchAttributes = Map.of();

	private Map<String, Object> startMemo = Map.of();

	private Map<String, Object> searchAttributes = new TreeMap<>();

	private Map<String, Object> memo = new TreeMap<>();

	VisibilityStates(CommandRecorder commands, UUID runId) {
		this.commands = commands;
		this.runId = runId;
	}

	/**
	 * The input event of a run that starts with a memo or search attributes, or
	 * {@code null}.
	 */
	public static WorkflowAttributes startEvent(Map<String, Object> memo, Map<String, Object> searchAttributes) {
		if (memo.isEmpty() && searchAttributes.isEmpty()) {
			return null;
		}
		Map<String, Object> both = new TreeMap<>();
		both.put("memo", memo);
		both.put("searchAttributes", searchAttributes);
		return new WorkflowAttributes(Attributes.bytes(both));
	}

	/** Applies the WORKFLOW_ATTRIBUTES input. */
	@SuppressWarnings("unchecked")
	void started(WorkflowAttributes input) {
		Map<String, Object> both = Attributes.read(input.json());
		this.startMemo = new TreeMap<>((Map<String, Object>) both.getOrDefault("memo", Map.of()));
		this.startSearchAttributes = new TreeMap<>(
				(Map<String, Object>) both.getOrDefault("searchAttributes", Map.of()));
		this.memo = new TreeMap<>(this.startMemo);
		this.searchAttributes = new TreeMap<>(this.startSearchAttributes);
	}

	/** Workflows.upsertSearchAttributes: validates, records the patch, merges it. */
	public void upsertSearchAttributes(Map<String, ?> patch) {
		checkCanRecord("upsert search attributes");
		Map<String, Object> normalized = Attributes.searchAttributes(patch, true);
		Map<String, Object> merged = Attributes.merge(this.searchAttributes, normalized);
		Attributes.checkSize(merged, false);
		if (!normalized.isEmpty()) {
			record(EventType.UPSERT_SEARCH_ATTRIBUTES, normalized);
		}
		this.searchAttributes = merged;
	}

	/** Workflows.upsertMemo: validates, records the patch, merges it. */
	public void upsertMemo(Map<String, ?> patch) {
		checkCanRecord("upsert the memo");
		Map<String, Object> normalized = Attributes.memo(patch, true);
		Map<String, Object> merged = Attributes.merge(this.memo, normalized);
		Attributes.checkSize(merged, true);
		if (!normalized.isEmpty()) {
			record(EventType.UPSERT_MEMO, normalized);
		}
		this.memo = merged;
	}

	private void checkCanRecord(String what) {
		this.commands.checkNotReadOnly(what);
		if (this.commands.closeEvent() != null) {
			throw new IllegalStateException("Run " + this.runId + " is already closing");
		}
	}

	private void record(EventType type, Map<String, Object> patch) {
		byte[] encoded = Attributes.bytes(patch);
		byte[] recorded = switch (this.commands.emit(Event.attributes(type, encoded))) {
			case UpsertMemo upsert -> upsert.patch();
			case UpsertSearchAttributes upsert -> upsert.patch();
			default -> throw new IllegalArgumentException(type + " is not an upsert");
		};
		if (!Arrays.equals(recorded, encoded)) {
			// the command type matched but the code now upserts other values
			throw this.commands.failTask(new NonDeterministicWorkflowException("Run " + this.runId + " issued " + type
					+ " " + new String(encoded, java.nio.charset.StandardCharsets.UTF_8) + " where its history holds "
					+ new String(recorded, java.nio.charset.StandardCharsets.UTF_8)
					+ ": the workflow code changed incompatibly; guard the change with Workflows.getVersion"));
		}
	}

	/**
	 * The current search attributes in stored form (for the commit and continue-as-new).
	 */
	public Map<String, Object> searchAttributes() {
		return this.searchAttributes;
	}

	/** The current memo (for the commit and continue-as-new). */
	public Map<String, Object> memo() {
		return this.memo;
	}

	/**
	 * The search attributes the run started with (a retry or cron run starts with them
	 * too).
	 */
	public Map<String, Object> startSearchAttributes() {
		return this.startSearchAttributes;
	}

	/** The memo the run started with. */
	public Map<String, Object> startMemo() {
		return this.startMemo;
	}

	/** Whether the events of a task change the memo or search attributes. */
	public static boolean changes(java.util.List<Event> events) {
		return events.stream()
			.anyMatch((e) -> e.type() == EventType.UPSERT_SEARCH_ATTRIBUTES || e.type() == EventType.UPSERT_MEMO);
	}

}
