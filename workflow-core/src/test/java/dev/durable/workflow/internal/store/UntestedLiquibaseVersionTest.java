package dev.durable.workflow.internal.store;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node on a Liquibase Durable is not tested with says so at startup: Spring Boot 4
 * manages 5.x, Durable's BOM 4.x, and the parent's management wins over the BOM's.
 */
class UntestedLiquibaseVersionTest {

	@Test
	void fiveAndLaterAreUntested() {
		assertThat(SchemaMigrator.untested("5.0.3")).isTrue();
		assertThat(SchemaMigrator.untested("6.1.0")).isTrue();
		assertThat(SchemaMigrator.untested("10.0.0")).isTrue();
	}

	@Test
	void fourIsTestedAndADevelopmentBuildIsNotJudged() {
		assertThat(SchemaMigrator.untested("4.33.0")).isFalse();
		assertThat(SchemaMigrator.untested("4.29.1")).isFalse();
		assertThat(SchemaMigrator.untested("DEV")).isFalse();
		assertThat(SchemaMigrator.untested("")).isFalse();
	}

}
