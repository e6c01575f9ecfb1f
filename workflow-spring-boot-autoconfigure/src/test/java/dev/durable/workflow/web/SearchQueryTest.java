package dev.durable.workflow.web;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowFilter.Condition;
import dev.durable.workflow.client.WorkflowFilter.Operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The list endpoint's query language, parsed into typed conditions. */
class SearchQueryTest {

	private static List<Condition> conditions(String query) {
		return SearchQuery.apply(query, WorkflowFilter.all()).conditions();
	}

	@Test
	void parsesTypedConditionsJoinedByAnd() {
		assertThat(conditions("customerId = 'c-42' and amount >= 100 AND ratio < 0.5 AND vip = true"
				+ " AND paidAt <= 2026-12-01T00:00:00Z AND stage IN ('paid', \"shipped\") AND n > -3"))
			.containsExactly(new Condition("customerId", Operator.EQ, List.of("c-42")),
					new Condition("amount", Operator.GE, List.of(100L)),
					new Condition("ratio", Operator.LT, List.of(0.5)), new Condition("vip", Operator.EQ, List.of(true)),
					new Condition("paidAt", Operator.LE, List.of(Instant.parse("2026-12-01T00:00:00Z"))),
					new Condition("stage", Operator.IN, List.of("paid", "shipped")),
					new Condition("n", Operator.GT, List.of(-3L)));
		assertThat(conditions("note = 'it''s'")).containsExactly(new Condition("note", Operator.EQ, List.of("it's")));
		assertThat(conditions("  ")).isEmpty();
	}

	@Test
	void saysWhereAQueryIsWrong() {
		assertThatThrownBy(() -> conditions("amount >= lots")).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("'lots' is not a value");
		assertThatThrownBy(() -> conditions("a = 'x' OR b = 'y'")).hasMessageContaining("expected AND");
		assertThatThrownBy(() -> conditions("a ~ 1")).hasMessageContaining("expected one of");
		assertThatThrownBy(() -> conditions("a = 'open")).hasMessageContaining("unterminated string");
		assertThatThrownBy(() -> conditions("= 1")).hasMessageContaining("attribute name");
		assertThatThrownBy(() -> conditions("t > 2026-13-01T00:00:00Z")).hasMessageContaining("ISO-8601");
		assertThatThrownBy(() -> conditions("s IN ('a'")).hasMessageContaining("expected ')'");
		// an injection attempt is only an odd value
		assertThat(conditions("name = 'x''; DROP TABLE durable.workflow_run; --'"))
			.containsExactly(new Condition("name", Operator.EQ, List.of("x'; DROP TABLE durable.workflow_run; --")));
	}

}
