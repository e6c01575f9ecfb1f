package dev.durable.docs.activities.plain;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.activity.ActivityTransaction;

/** The guide's transactional activity without Spring. */
@Activity
public class Reservations {

	public Reservations(DataSource dataSource) {
		// the engine's DataSource: the activity writes through ActivityTransaction
	}

	// @formatter:off
	// snippet:activities-transactional-without-spring part 2
	@ActivityMethod(transactional = true)
	public void reserve(String orderId) throws SQLException {
	  try (PreparedStatement insert = ActivityTransaction.connection()
	      .prepareStatement("INSERT INTO reservation (order_id) VALUES (?)")) {
	    insert.setString(1, orderId);
	    insert.executeUpdate();
	  }
	}
	// end-snippet
	// @formatter:on

}
