package dev.durable.docs.sqlfunctions;

import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

/**
 * The Java block of {@code docs/sql-functions.md}: a start from SQL in the application's
 * own transaction, with no workflow client.
 */
class OrderService {

	private final JdbcTemplate jdbc;

	OrderService(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
	}

	record Order(String id, String customer, int amount) {
	}

	// @formatter:off
	// snippet:sql-functions-spring
	@Transactional
	public void placeOrder(Order order) {
	    jdbc.update("INSERT INTO shop.orders (id, customer, amount) VALUES (?, ?, ?)",
	            order.id(), order.customer(), order.amount());
	    jdbc.queryForObject("SELECT durable.start_workflow('order', ?,"
	            + " jsonb_build_object('id', ?::text, 'amount', ?::int))", UUID.class,
	            "order-" + order.id(), order.id(), order.amount());
	}
	// end-snippet
	// @formatter:on

}
