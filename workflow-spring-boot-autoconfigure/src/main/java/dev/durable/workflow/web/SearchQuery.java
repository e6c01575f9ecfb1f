package dev.durable.workflow.web;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.client.WorkflowFilter;

/**
 * The {@code query} parameter of the list endpoint: search-attribute conditions joined by
 * {@code AND}, e.g.
 * {@code customerId = 'c-42' AND amount >= 100 AND paidAt < 2026-12-01T00:00:00Z
 * AND stage IN ('paid', 'shipped')}. Operators {@code = > >= < <= IN}; values are quoted
 * strings, numbers, {@code true}/{@code false} or ISO-8601 instants (unquoted). The
 * result is a {@link WorkflowFilter}: every value stays a bound parameter.
 */
final class SearchQuery {

	private final String text;

	private int pos;

	private SearchQuery(String text) {
		this.text = text;
	}

	/**
	 * Adds the query's conditions to the filter. @throws IllegalArgumentException saying
	 * where the query is wrong
	 */
	static WorkflowFilter apply(@Nullable String query, WorkflowFilter filter) {
		if (query == null || query.isBlank()) {
			return filter;
		}
		return new SearchQuery(query).parse(filter);
	}

	/**
	 * The conditions written back as a query that {@link #apply} reads into the same
	 * conditions (what a batch shows of its filter), or {@code null} for none.
	 */
	static @Nullable String render(List<WorkflowFilter.Condition> conditions) {
		if (conditions.isEmpty()) {
			return null;
		}
		List<String> parts = new ArrayList<>();
		for (WorkflowFilter.Condition condition : conditions) {
			String attribute = condition.attribute();
			parts.add(switch (condition.operator()) {
				case EQ -> attribute + " = " + literal(condition.values().get(0));
				case GT -> attribute + " > " + literal(condition.values().get(0));
				case GE -> attribute + " >= " + literal(condition.values().get(0));
				case LT -> attribute + " < " + literal(condition.values().get(0));
				case LE -> attribute + " <= " + literal(condition.values().get(0));
				case IN -> attribute + " IN ("
						+ String.join(", ", condition.values().stream().map(SearchQuery::literal).toList()) + ")";
			});
		}
		return String.join(" AND ", parts);
	}

	private static String literal(Object value) {
		if (value instanceof String string) {
			return "'" + string.replace("'", "''") + "'";
		}
		if (value instanceof java.time.temporal.TemporalAccessor) {
			return (value instanceof OffsetDateTime offset) ? offset.toInstant().toString() : value.toString();
		}
		return String.valueOf(value);
	}

	private WorkflowFilter parse(WorkflowFilter filter) {
		WorkflowFilter result = filter;
		do {
			result = condition(result);
			skipSpaces();
		}
		while (keyword("AND"));
		if (this.pos < this.text.length()) {
			throw error("expected AND or the end of the query");
		}
		return result;
	}

	private WorkflowFilter condition(WorkflowFilter filter) {
		skipSpaces();
		int start = this.pos;
		while (this.pos < this.text.length()
				&& (Character.isLetterOrDigit(this.text.charAt(this.pos)) || this.text.charAt(this.pos) == '_')) {
			this.pos++;
		}
		if (start == this.pos) {
			throw error("expected a search attribute name");
		}
		String attribute = this.text.substring(start, this.pos);
		skipSpaces();
		if (keyword("IN")) {
			skipSpaces();
			expect('(');
			List<Object> values = new ArrayList<>();
			do {
				values.add(value());
				skipSpaces();
			}
			while (accept(','));
			expect(')');
			return filter.in(attribute, values);
		}
		if (accept('>')) {
			return accept('=') ? filter.ge(attribute, value()) : filter.gt(attribute, value());
		}
		if (accept('<')) {
			return accept('=') ? filter.le(attribute, value()) : filter.lt(attribute, value());
		}
		if (accept('=')) {
			return filter.eq(attribute, value());
		}
		throw error("expected one of = > >= < <= IN after '" + attribute + "'");
	}

	private Object value() {
		skipSpaces();
		if (this.pos >= this.text.length()) {
			throw error("expected a value");
		}
		char first = this.text.charAt(this.pos);
		if (first == '\'' || first == '"') {
			StringBuilder value = new StringBuilder();
			this.pos++;
			while (this.pos < this.text.length()) {
				char c = this.text.charAt(this.pos++);
				if (c == first) {
					// a doubled quote stands for itself
					if (this.pos < this.text.length() && this.text.charAt(this.pos) == first) {
						value.append(c);
						this.pos++;
						continue;
					}
					return value.toString();
				}
				value.append(c);
			}
			throw error("unterminated string");
		}
		int start = this.pos;
		while (this.pos < this.text.length() && !Character.isWhitespace(this.text.charAt(this.pos))
				&& ",()".indexOf(this.text.charAt(this.pos)) < 0) {
			this.pos++;
		}
		String word = this.text.substring(start, this.pos);
		if (word.equalsIgnoreCase("true") || word.equalsIgnoreCase("false")) {
			return Boolean.parseBoolean(word);
		}
		if (word.length() > 10 && word.charAt(4) == '-' && word.indexOf('T') == 10) {
			try {
				return OffsetDateTime.parse(word).toInstant();
			}
			catch (DateTimeParseException ex) {
				throw error("'" + word + "' is not an ISO-8601 instant (e.g. 2026-12-01T00:00:00Z)");
			}
		}
		try {
			BigDecimal number = new BigDecimal(word);
			if (number.scale() <= 0 && number.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
				return number.longValueExact();
			}
			return number.doubleValue();
		}
		catch (NumberFormatException | ArithmeticException ex) {
			throw error("'" + word + "' is not a value: quote strings ('...'), or write a number, true, false or an"
					+ " ISO-8601 instant");
		}
	}

	private boolean keyword(String word) {
		skipSpaces();
		int end = this.pos + word.length();
		if (end <= this.text.length() && this.text.substring(this.pos, end).toUpperCase(Locale.ROOT).equals(word)
				&& (end == this.text.length() || !Character.isLetterOrDigit(this.text.charAt(end)))) {
			this.pos = end;
			return true;
		}
		return false;
	}

	private boolean accept(char c) {
		skipSpaces();
		if (this.pos < this.text.length() && this.text.charAt(this.pos) == c) {
			this.pos++;
			return true;
		}
		return false;
	}

	private void expect(char c) {
		if (!accept(c)) {
			throw error("expected '" + c + "'");
		}
	}

	private void skipSpaces() {
		while (this.pos < this.text.length() && Character.isWhitespace(this.text.charAt(this.pos))) {
			this.pos++;
		}
	}

	private IllegalArgumentException error(String what) {
		return new IllegalArgumentException(
				"Invalid query at position " + (this.pos + 1) + ": " + what + " (query: " + this.text + ")");
	}

}
