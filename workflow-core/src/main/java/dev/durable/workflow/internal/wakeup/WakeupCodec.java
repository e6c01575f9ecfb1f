package dev.durable.workflow.internal.wakeup;

import java.util.UUID;

import dev.durable.workflow.internal.store.TopicMatch;

/**
 * The text of a wake-up notification, written and read in one place. The wire form is
 * what nodes of every version send and understand:
 * <ul>
 * <li>{@code *}: any node</li>
 * <li>{@code <node>}: one node</li>
 * <li>{@code R:<node>:<run id>}: one run of a node</li>
 * <li>{@code Q:<sender node>:<queue>}: a flow-control queue's round</li>
 * <li>{@code A:<task queue>}: an activity task queue</li>
 * <li>{@code O:<run id>}: a run's outputs changed</li>
 * <li>{@code C:<run id>}: an awaited run closed</li>
 * <li>{@code E}: events were published (also sent by the schema's SQL functions)</li>
 * </ul>
 */
public final class WakeupCodec {

	private static final String ANY_NODE = "*";

	private static final String RUN = "R:";

	private static final String QUEUE = "Q:";

	private static final String TASK_QUEUE = "A:";

	private static final String OUTPUTS = "O:";

	private static final String CLOSED = "C:";

	private WakeupCodec() {
	}

	/** The notification text of a wake-up. */
	public static String write(Wakeup wakeup) {
		return switch (wakeup) {
			case Wakeup.AnyNode any -> ANY_NODE;
			case Wakeup.Node node -> node.node().toString();
			case Wakeup.Run run -> RUN + run.node() + ":" + run.runId();
			case Wakeup.QueueRound round -> QUEUE + round.sender() + ":" + round.queue();
			case Wakeup.TaskQueue queue -> TASK_QUEUE + queue.taskQueue();
			case Wakeup.Outputs outputs -> OUTPUTS + outputs.runId();
			case Wakeup.Closed closed -> CLOSED + closed.runId();
			case Wakeup.Topics topics -> TopicMatch.NOTIFICATION;
		};
	}

	/**
	 * The wake-up a notification's text names, or {@code null} when it names none this
	 * version knows (a listener ignores it).
	 */
	public static Wakeup read(String text) {
		if (text == null) {
			return null;
		}
		try {
			if (ANY_NODE.equals(text)) {
				return Wakeup.AnyNode.INSTANCE;
			}
			if (TopicMatch.NOTIFICATION.equals(text)) {
				return Wakeup.Topics.INSTANCE;
			}
			if (text.startsWith(QUEUE)) {
				int end = text.indexOf(':', QUEUE.length());
				return new Wakeup.QueueRound(UUID.fromString(text.substring(QUEUE.length(), end)),
						text.substring(end + 1));
			}
			if (text.startsWith(OUTPUTS)) {
				return new Wakeup.Outputs(UUID.fromString(text.substring(OUTPUTS.length())));
			}
			if (text.startsWith(CLOSED)) {
				return new Wakeup.Closed(UUID.fromString(text.substring(CLOSED.length())));
			}
			if (text.startsWith(TASK_QUEUE)) {
				return new Wakeup.TaskQueue(text.substring(TASK_QUEUE.length()));
			}
			if (text.startsWith(RUN)) {
				int end = text.indexOf(':', RUN.length());
				return new Wakeup.Run(UUID.fromString(text.substring(RUN.length(), end)),
						UUID.fromString(text.substring(end + 1)));
			}
			return new Wakeup.Node(UUID.fromString(text));
		}
		catch (IllegalArgumentException | IndexOutOfBoundsException ex) {
			return null;
		}
	}

}
