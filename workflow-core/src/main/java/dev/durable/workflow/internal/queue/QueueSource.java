package dev.durable.workflow.internal.queue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.internal.store.Sql;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * A kind of item waiting in a queue, which {@link QueueAdmission#admit} admits under the
 * queue's limits: it lists its waiting items in admission order and records the admission
 * of the chosen ones (what holds the slots, the admission counts with its
 * {@link QueueOccupancy} kinds, of which this kind must be one). Every method runs inside
 * the caller's transaction, with the queue's row locked.
 *
 * @param <K> what an item is offered by (a run id, an activity row's key)
 * @param <A> what an admitted item is handed on as (a run and its new epoch, a claimed
 * attempt)
 */
public interface QueueSource<K, A> {

	/**
	 * A page of waiting candidates.
	 *
	 * @param candidates the candidates to offer, in admission order (highest priority
	 * first, then arrival); those a source drops on the way (a closed run) are simply not
	 * in it
	 * @param next where the next page starts (opaque to the caller, given back to
	 * {@link #candidates}), or {@code null} when there is no more
	 * @param <K> the key type
	 */
	record Page<K>(List<AdmissionPlan.Candidate<K>> candidates, @Nullable Object next) {
	}

	/**
	 * The waiting items due by {@code now}, in admission order, from {@code from} on: by
	 * priority, then arrival, or with {@link QueueDefinition#fair()} in the
	 * {@link FairOrder} of the queue's weights.
	 * @param queue the queue's definition, as locked by the round
	 * @param fullPartitions partitions at their limit: their items may be left out (they
	 * would be skipped)
	 * @param from where to continue ({@link Page#next} of the previous page), or
	 * {@code null} for the head
	 * @param limit the most candidates in the page
	 */
	Page<K> candidates(String namespace, QueueDefinition queue, Instant now, Set<String> fullPartitions,
			@Nullable Object from, int limit);

	/**
	 * Items a source closed for waiting too long.
	 *
	 * @param afterCommit what to do once the round committed (tell who waits for them)
	 * @param more whether more are to be closed: the round admits nothing then, and
	 * another follows at once
	 */
	record Expired(List<Runnable> afterCommit, boolean more) {

		/** Nothing closed. */
		public static final Expired NONE = new Expired(List.of(), false);

	}

	/**
	 * Closes the items that waited in the queue since {@code cutoff} or earlier (its
	 * admission timeout), inside the round's transaction, before the candidates are read;
	 * by default nothing (a source whose items have timeouts of their own).
	 */
	default Expired expire(String namespace, QueueDefinition queue, Instant cutoff, Instant now) {
		return Expired.NONE;
	}

	/**
	 * Records that the candidates were admitted by the node at {@code now}: they hold
	 * slots from now on, which the occupancy of its kind must count, and they become
	 * runnable.
	 * @return what was admitted, to hand on once the transaction committed (a source may
	 * lose some to a race, e.g. a run closed meanwhile)
	 */
	List<A> admit(String namespace, String queue, UUID node, Instant now, List<AdmissionPlan.Candidate<K>> admitted);

	/**
	 * The parameters of a page of candidates, in the order every source's query takes
	 * them: namespace, queue and now, then the text arrays (the source's filters, the
	 * full partitions), then the weights of a fair order (see {@link FairOrder}) with the
	 * namespace and queue again (the passes), then the priority of the cursor twice and
	 * the rest of it (when there is a cursor), then the page size.
	 * @param weights the weights of the fair order as a JSON object, or {@code null} for
	 * the order of arrival
	 * @param cursor the priority of the last row read, then its other order columns;
	 * {@code null} for the head of the queue
	 */
	/**
	 * The weights parameter of a page of the queue's candidates: its weights as JSON when
	 * it is fair, else {@code null}.
	 */
	static @Nullable String weights(QueueDefinition queue) {
		return queue.fair() ? new String(InternalJson.write(queue.partitionWeights()), StandardCharsets.UTF_8) : null;
	}

	static org.springframework.jdbc.core.PreparedStatementSetter page(String namespace, String queue, Instant now,
			List<java.util.Collection<String>> arrays, @Nullable String weights, @Nullable Integer priority,
			@Nullable Object[] cursor, int limit) {
		return (ps) -> {
			int i = 1;
			ps.setString(i++, namespace);
			ps.setString(i++, queue);
			ps.setTimestamp(i++, Sql.ts(now));
			for (java.util.Collection<String> values : arrays) {
				ps.setArray(i++, ps.getConnection().createArrayOf("text", values.toArray()));
			}
			if (weights != null) {
				ps.setString(i++, weights);
				ps.setString(i++, namespace);
				ps.setString(i++, queue);
			}
			if (priority != null && cursor != null) {
				ps.setInt(i++, priority);
				ps.setInt(i++, priority);
				for (Object value : cursor) {
					ps.setObject(i++, value);
				}
			}
			ps.setInt(i, limit);
		};
	}

}
