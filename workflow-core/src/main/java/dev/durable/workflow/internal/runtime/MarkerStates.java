package dev.durable.workflow.internal.runtime;

import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.SideEffect;
import dev.durable.workflow.internal.history.Event.VersionMarker;
import dev.durable.workflow.internal.support.Payloads;

/**
 * Recorded values: side effects (run once, then read back from history) and version
 * markers (new code paths get the newest version, code that ran before the change existed
 * gets {@link WorkflowContext#DEFAULT_VERSION}).
 */
final class MarkerStates {

	private final CommandRecorder commands;

	private final Payloads payloads;

	private final UUID runId;

	private final Map<String, Integer> versions = new HashMap<>();

	MarkerStates(CommandRecorder commands, Payloads payloads, UUID runId) {
		this.commands = commands;
		this.payloads = payloads;
		this.runId = runId;
	}

	<T> T sideEffect(long seq, Type type, Supplier<T> supplier) {
		byte[] encoded = null;
		if (!this.commands.isReplaying()) {
			encoded = this.payloads.encode(supplier.get(), type, "a side effect value");
		}
		SideEffect recorded = this.commands.emit(Event.sideEffect(seq, encoded));
		@SuppressWarnings("unchecked")
		T value = (T) this.payloads.decode(recorded.value(), type, "a side effect value");
		return value;
	}

	int getVersion(String changeId, int minSupported, int maxSupported) {
		Integer version = this.versions.get(changeId);
		if (version == null) {
			version = recordedOrNewVersion(changeId, maxSupported);
			this.versions.put(changeId, version);
		}
		if (version < minSupported || version > maxSupported) {
			throw this.commands.failTask(new NonDeterministicWorkflowException(
					"Version " + version + " of change '" + changeId + "' recorded in run " + this.runId
							+ " is outside the supported range [" + minSupported + ", " + maxSupported + "]"));
		}
		return version;
	}

	private int recordedOrNewVersion(String changeId, int maxSupported) {
		if (!this.commands.isReplaying()) {
			this.commands.emit(Event.versionMarker(changeId, maxSupported));
			return maxSupported;
		}
		if (this.commands.peekExpected() instanceof VersionMarker next && changeId.equals(next.changeId())) {
			this.commands.acceptExpected();
			return next.version();
		}
		return WorkflowContext.DEFAULT_VERSION;
	}

}
