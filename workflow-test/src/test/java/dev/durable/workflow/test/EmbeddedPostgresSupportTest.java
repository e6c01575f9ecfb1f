package dev.durable.workflow.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class EmbeddedPostgresSupportTest {

	@Test
	void selectOneThroughDataSource() throws Exception {
		try (Connection c = EmbeddedPostgresSupport.dataSource().getConnection();
				Statement s = c.createStatement();
				ResultSet rs = s.executeQuery("select 1")) {
			assertThat(rs.next()).isTrue();
			assertThat(rs.getInt(1)).isEqualTo(1);
		}
	}

	@Test
	void jdbcUrlReachesTheSameServer() throws Exception {
		assertThat(EmbeddedPostgresSupport.jdbcUrl()).contains(":" + EmbeddedPostgresSupport.port() + "/");
		try (Connection c = DriverManager.getConnection(EmbeddedPostgresSupport.jdbcUrl(), EmbeddedPostgresSupport.USER,
				"");
				Statement s = c.createStatement();
				ResultSet rs = s.executeQuery("select current_setting('server_version_num')::int")) {
			assertThat(rs.next()).isTrue();
			assertThat(rs.getInt(1) / 10000).isEqualTo(17);
		}
	}

}
