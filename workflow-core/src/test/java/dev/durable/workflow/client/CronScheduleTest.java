package dev.durable.workflow.client;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.schedule.CronSchedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cron syntax of cron workflows and schedules. */
class CronScheduleTest {

	@Test
	void fiveFieldsHaveMinutePrecisionAndSixTakeSeconds() {
		Instant after = Instant.parse("2026-03-01T08:59:30Z");
		assertThat(CronSchedule.parse("0 9 * * *").next(after)).isEqualTo(Instant.parse("2026-03-01T09:00:00Z"));
		assertThat(CronSchedule.parse("45 59 8 * * *").next(after)).isEqualTo(Instant.parse("2026-03-01T08:59:45Z"));
	}

	@Test
	void theZoneIsUtcUnlessTheExpressionNamesOne() {
		assertThat(CronSchedule.parse("0 9 * * *").zone()).isEqualTo(ZoneOffset.UTC);
		CronSchedule paris = CronSchedule.parse("CRON_TZ=Europe/Paris 0 9 * * *");
		assertThat(paris.zone()).isEqualTo(ZoneId.of("Europe/Paris"));
		// nine o'clock in Paris, winter time
		assertThat(paris.next(Instant.parse("2026-01-10T00:00:00Z"))).isEqualTo(Instant.parse("2026-01-10T08:00:00Z"));
		// the wall-clock form ignores the zone: the caller applies its own
		assertThat(paris.next(LocalDateTime.parse("2026-01-10T00:00:00")))
			.isEqualTo(LocalDateTime.parse("2026-01-10T09:00:00"));
	}

	@Test
	void badFieldsFailAtParseAndABadZoneWhenTheZoneIsAskedFor() {
		assertThatThrownBy(() -> CronSchedule.parse("61 * * * *")).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid cron schedule '61 * * * *'");
		CronSchedule nowhere = CronSchedule.parse("CRON_TZ=Mars/Olympus 0 9 * * *");
		assertThatThrownBy(nowhere::zone).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid time zone 'Mars/Olympus'");
		assertThat(nowhere.expression()).isEqualTo("CRON_TZ=Mars/Olympus 0 9 * * *");
	}

}
