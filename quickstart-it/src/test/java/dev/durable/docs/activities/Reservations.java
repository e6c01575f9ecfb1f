package dev.durable.docs.activities;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;

// @formatter:off
// snippet:activities-transactional
@Activity
public class Reservations {

  private final JdbcTemplate jdbc;                      // on the application's DataSource

  public Reservations(JdbcTemplate jdbc) { this.jdbc = jdbc; }

  @ActivityMethod(transactional = true)                 // isolation, serializationRetries optional
  public String reserve(String orderId, String sku) {
    jdbc.update("INSERT INTO reservation (order_id, sku) VALUES (?, ?)", orderId, sku);
    jdbc.update("UPDATE stock SET available = available - 1 WHERE sku = ?", sku);
    return "reserved " + sku;
  }
}
// end-snippet
// @formatter:on
