package dev.durable.workflow.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** The inbox's {@code kind} column and the enum that names its values. */
class InboxKindTest {

	@Test
	void everyKindRoundTripsThroughItsStoredValue() {
		for (InboxKind kind : InboxKind.values()) {
			assertThat(InboxKind.of(kind.stored())).isSameAs(kind);
		}
	}

	@Test
	void storedValuesAreTheOnesAlreadyInTheDatabase() {
		assertThat(Arrays.stream(InboxKind.values()).map(InboxKind::stored)).containsExactlyInAnyOrder("SIGNAL",
				"UPDATE", "CANCEL", "TERMINATE", "CHILD_STARTED", "CHILD_START_FAILED", "CHILD_COMPLETED",
				"CHILD_FAILED", "EXTERNAL_DELIVERED", "EVENT", "ACTIVITY_COMPLETED", "ACTIVITY_FAILED",
				"ACTIVITY_RETRY");
	}

	@Test
	void unknownStoredValueIsRejected() {
		assertThatThrownBy(() -> InboxKind.of("SIGNALLED")).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("SIGNALLED");
		assertThatThrownBy(() -> InboxKind.of("signal")).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> InboxKind.of(null)).isInstanceOf(IllegalArgumentException.class);
	}

}
