package dev.durable.workflow.web.browser;

import javax.sql.DataSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import dev.durable.workflow.test.EmbeddedPostgresSupport;

/**
 * The application the browser test drives: shipments that wait for an approval, invoices
 * that fail, a ledger sync whose activity keeps failing, an audit whose workflow code is
 * broken, and a fulfillment with child runs that continues as new.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(Warehouse.class)
public class DashboardApplication {

	/**
	 * The property that leaves Spring Security's auto-configurations out (it is on the
	 * test classpath for other tests): the browser tests set the dashboard's access by
	 * properties alone.
	 */
	public static final String WITHOUT_SECURITY = "spring.autoconfigure.exclude="
			+ "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration,"
			+ "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration,"
			+ "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration,"
			+ "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration,"
			+ "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration";

	@Bean
	HeldDescriptions heldDescriptions() {
		return new HeldDescriptions();
	}

	@Bean
	DataSource dataSource() {
		return EmbeddedPostgresSupport.newPooledDataSource();
	}

}
