package dev.durable.workflow.internal.trigger;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

import dev.durable.workflow.WorkflowIdReusePolicy;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.internal.client.RunStarter;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.store.Sql;
import dev.durable.workflow.internal.support.InternalJson;
import dev.durable.workflow.internal.support.Payloads;

/**
 * A worker node's event triggers: at each start it declares the triggers of the types it
 * registers (replacing what an earlier build of it declared), and after each dispatch of
 * topic events it acts on the triggers events set off for those types.
 * <ul>
 * <li>START: a run per event, its id from a payload field or the event id, with the
 * REJECT_DUPLICATE policy: a repeat starts nothing.</li>
 * <li>BATCH: the events wait in {@code event_action} until a batch is full or its first
 * event is older than the window (on the engine clock); then one run takes them all.</li>
 * <li>CANCEL: a cancel request to each open run of the type whose search attribute equals
 * the payload field.</li>
 * </ul>
 * Each action is removed in the transaction that acts on it (a start joins it, so a crash
 * in between starts nothing twice; a cancel request may be sent again, which changes
 * nothing). An event whose payload does not fit the run method's input starts nothing: it
 * is logged, never a run that could only fail.
 */
public final class EventTriggers {

	private static final Logger log = LoggerFactory.getLogger(EventTriggers.class);

	private static final int ACTIONS_PER_ROUND = 50;

	private final JdbcTemplate jdbc;

	private final TransactionTemplate tx;

	private final TransactionTemplate savepoint;

	private final String namespace;

	private final WorkflowRegistry workflows;

	private final RunStarter starter;

	private final WorkflowClient client;

	private final Payloads payloads;

	private final Clock clock;

	private final String forget;

	private final String declare;

	private final String actions;

	private final String removeAction;

	private final String batchState;

	private final String batchActions;

	private final String matchingRuns;

	private volatile List<TriggerDeclaration> triggers = List.of();

	public EventTriggers(JdbcTemplate jdbc, TransactionTemplate tx, String schema, String namespace,
			WorkflowRegistry workflows, RunStarter starter, WorkflowClient client, Payloads payloads, Clock clock) {
		this.jdbc = jdbc;
		this.tx = tx;
		this.savepoint = new TransactionTemplate(Objects.requireNonNull(tx.getTransactionManager()));
		this.savepoint.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
		this.namespace = namespace;
		this.workflows = workflows;
		this.starter = starter;
		this.client = client;
		this.payloads = payloads;
		this.clock = clock;
		this.forget = Sql.q(schema, "DELETE FROM #.event_trigger WHERE namespace = ? AND workflow_type = ANY(?)");
		this.declare = Sql.q(schema, "INSERT INTO #.event_trigger (namespace, topic, workflow_type, kind)"
				+ " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING");
		String action = "SELECT a.topic, a.event_id, a.workflow_type, e.payload::text, a.created_at"
				+ " FROM #.event_action a JOIN #.topic_event e ON e.namespace = a.namespace AND e.topic = a.topic"
				+ " AND e.event_id = a.event_id WHERE a.namespace = ? AND a.kind = ?";
		this.actions = Sql.q(schema, action + " AND a.workflow_type = ANY(?) ORDER BY a.position LIMIT "
				+ ACTIONS_PER_ROUND + " FOR UPDATE OF a SKIP LOCKED");
		this.removeAction = Sql.q(schema, "DELETE FROM #.event_action WHERE namespace = ? AND workflow_type = ?"
				+ " AND kind = ? AND topic = ? AND event_id = ?");
		this.batchState = Sql.q(schema, "SELECT count(*), min(created_at) FROM #.event_action"
				+ " WHERE namespace = ? AND kind = 'BATCH' AND workflow_type = ? AND topic = ?");
		this.batchActions = Sql.q(schema, action + " AND a.workflow_type = ? AND a.topic = ? ORDER BY a.position"
				+ " LIMIT ? FOR UPDATE OF a SKIP LOCKED");
		this.matchingRuns = Sql.q(schema, "SELECT workflow_id, run_id FROM #.visibility WHERE namespace = ?"
				+ " AND workflow_type = ? AND status = 'RUNNING' AND search_attributes @> jsonb_build_object(?::text,"
				+ " ?::jsonb)");
	}

	/**
	 * Declares the triggers of the types this node registers, in place of what was
	 * declared for them before.
	 * @throws IllegalStateException for a declaration that cannot work
	 */
	public void declare() {
		Collection<WorkflowDefinition> definitions = this.workflows.all();
		List<TriggerDeclaration> declared = new ArrayList<>();
		for (WorkflowDefinition definition : definitions) {
			declared.addAll(TriggerDeclaration.of(definition));
		}
		String[] types = definitions.stream().map(WorkflowDefinition::typeName).toArray(String[]::new);
		this.tx.executeWithoutResult((status) -> {
			this.jdbc.update(this.forget, this.namespace, types);
			for (TriggerDeclaration trigger : declared) {
				this.jdbc.update(this.declare, this.namespace, trigger.topic(), trigger.workflowType(), trigger.kind());
			}
		});
		this.triggers = List.copyOf(declared);
	}

	/** Acts on the triggers events set off for the types this node declared. */
	public void act() {
		List<TriggerDeclaration> declared = this.triggers;
		if (declared.isEmpty()) {
			return;
		}
		String[] starting = types(declared, TriggerDeclaration.START);
		if (starting.length > 0) {
			while (round(TriggerDeclaration.START, starting) == ACTIONS_PER_ROUND) {
				// a full round: there may be more
			}
		}
		for (TriggerDeclaration batch : declared) {
			if (batch.kind().equals(TriggerDeclaration.BATCH)) {
				while (batch(batch)) {
					// a batch started: the next may be full too
				}
			}
		}
		String[] canceling = types(declared, TriggerDeclaration.CANCEL);
		if (canceling.length > 0) {
			while (round(TriggerDeclaration.CANCEL, canceling) == ACTIONS_PER_ROUND) {
				// a full round: there may be more
			}
		}
	}

	private static String[] types(List<TriggerDeclaration> declared, String kind) {
		return declared.stream()
			.filter((t) -> t.kind().equals(kind))
			.map(TriggerDeclaration::workflowType)
			.distinct()
			.toArray(String[]::new);
	}

	private TriggerDeclaration declaration(String type, String topic, String kind) {
		return this.triggers.stream()
			.filter((t) -> t.workflowType().equals(type) && t.topic().equals(topic) && t.kind().equals(kind))
			.findFirst()
			.orElse(null);
	}

	/** Acts on a round of START or CANCEL actions. @return how many it took */
	private int round(String kind, String[] types) {
		List<Runnable> afterCommit = new ArrayList<>();
		Integer taken = this.tx.execute((status) -> {
			List<Action> actions = this.jdbc.query(this.actions, Action.ROWS, this.namespace, kind, types);
			for (Action action : actions) {
				TriggerDeclaration trigger = declaration(action.workflowType(), action.topic(), kind);
				if (trigger != null) {
					if (kind.equals(TriggerDeclaration.START)) {
						start(trigger, action, afterCommit);
					}
					else {
						cancel(trigger, action);
					}
				}
				this.jdbc.update(this.removeAction, this.namespace, action.workflowType(), kind, action.topic(),
						action.eventId());
			}
			return actions.size();
		});
		afterCommit.forEach(Runnable::run);
		return (taken != null) ? taken : 0;
	}

	private void start(TriggerDeclaration trigger, Action action, List<Runnable> afterCommit) {
		String workflowId;
		if (trigger.field() != null) {
			JsonNode value = InternalJson.MAPPER.readTree(action.payload()).at(pointer(trigger.path()));
			if (!value.isValueNode() || value.isNull()) {
				log.warn(
						"Event {} on topic '{}' starts no {} run: its payload has no value at '{}' for the"
								+ " workflow id",
						action.eventId(), action.topic(), trigger.workflowType(), trigger.field());
				return;
			}
			workflowId = value.asString();
		}
		else {
			workflowId = trigger.workflowType() + ":" + action.topic() + ":" + action.eventId();
		}
		startRun(trigger, workflowId, action.payload(), "event " + action.eventId(), afterCommit);
	}

	/** Starts a run in a savepoint: a conflict (a repeat) or a refusal starts nothing. */
	private void startRun(TriggerDeclaration trigger, String workflowId, String inputJson, String what,
			List<Runnable> afterCommit) {
		byte[] input = Payloads.storedFromJson(this.payloads.converter(), inputJson);
		if (trigger.inputType() != null) {
			try {
				this.payloads.decode(input, trigger.inputType(), "the input of " + trigger.workflowType());
			}
			catch (RuntimeException ex) {
				log.warn("{} on topic '{}' starts no {} run: {}", what, trigger.topic(), trigger.workflowType(),
						ex.getMessage());
				return;
			}
		}
		StartOptions options = StartOptions.builder()
			.workflowId(workflowId)
			.idReusePolicy(WorkflowIdReusePolicy.REJECT_DUPLICATE)
			.build();
		try {
			RunStarter.StartInTransaction started = this.savepoint
				.execute((status) -> this.starter.startInTransaction(trigger.workflowType(), input, options));
			if (started != null) {
				afterCommit.add(started.afterCommit());
			}
		}
		catch (WorkflowAlreadyStartedException | DuplicateKeyException ex) {
			log.debug("{} on topic '{}' starts no {} run: {} exists", what, trigger.topic(), trigger.workflowType(),
					workflowId);
		}
		catch (RuntimeException ex) {
			log.warn("{} on topic '{}' starts no {} run: {}", what, trigger.topic(), trigger.workflowType(),
					ex.getMessage());
		}
	}

	/**
	 * Starts one batch of a BATCH trigger when it is full or its first event is older
	 * than the window. @return whether it started one
	 */
	private boolean batch(TriggerDeclaration trigger) {
		Instant now = this.clock.instant();
		boolean[] due = new boolean[1];
		this.jdbc.query(this.batchState, (rs) -> {
			long count = rs.getLong(1);
			Timestamp oldest = rs.getTimestamp(2);
			due[0] = count >= trigger.batchSize() || (count > 0 && oldest != null
					&& !oldest.toInstant().plus(Objects.requireNonNull(trigger.batchWindow())).isAfter(now));
		}, this.namespace, trigger.workflowType(), trigger.topic());
		if (!due[0]) {
			return false;
		}
		List<Runnable> afterCommit = new ArrayList<>();
		Boolean started = this.tx.execute((status) -> {
			List<Action> actions = this.jdbc.query(this.batchActions, Action.ROWS, this.namespace,
					TriggerDeclaration.BATCH, trigger.workflowType(), trigger.topic(), trigger.batchSize());
			if (actions.isEmpty()) {
				return false;
			}
			StringBuilder input = new StringBuilder("[");
			for (Action action : actions) {
				input.append((input.length() > 1) ? "," : "").append(action.payload());
				this.jdbc.update(this.removeAction, this.namespace, trigger.workflowType(), TriggerDeclaration.BATCH,
						action.topic(), action.eventId());
			}
			String first = actions.get(0).eventId();
			startRun(trigger, trigger.workflowType() + ":" + trigger.topic() + ":" + first,
					input.append(']').toString(), "the batch of " + actions.size() + " event(s) from " + first,
					afterCommit);
			return true;
		});
		afterCommit.forEach(Runnable::run);
		return Boolean.TRUE.equals(started);
	}

	private void cancel(TriggerDeclaration trigger, Action action) {
		JsonNode value = InternalJson.MAPPER.readTree(action.payload()).at(pointer(trigger.path()));
		if (value.isMissingNode() || value.isNull()) {
			return;
		}
		List<String[]> runs = this.jdbc.query(this.matchingRuns,
				(rs, n) -> new String[] { rs.getString(1), rs.getString(2) }, this.namespace, trigger.workflowType(),
				trigger.searchAttribute(), value.toString());
		String reason = "canceled by event " + action.eventId() + " on topic '" + action.topic() + "'";
		for (String[] run : runs) {
			try {
				this.client.handle(run[0], UUID.fromString(run[1])).cancel(reason);
			}
			catch (WorkflowClosedException | WorkflowNotFoundException ex) {
				// it closed meanwhile: nothing to cancel
			}
		}
	}

	private static String pointer(String[] path) {
		StringBuilder pointer = new StringBuilder();
		for (String part : path) {
			pointer.append('/').append(part.replace("~", "~0").replace("/", "~1"));
		}
		return pointer.toString();
	}

	/** An action a trigger set off, with its event's payload. */
	private record Action(String topic, String eventId, String workflowType, String payload, Instant createdAt) {

		static final RowMapper<Action> ROWS = (rs, n) -> new Action(rs.getString(1), rs.getString(2), rs.getString(3),
				rs.getString(4), rs.getTimestamp(5).toInstant());

	}

}
