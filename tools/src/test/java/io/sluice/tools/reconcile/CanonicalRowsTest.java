package io.sluice.tools.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class CanonicalRowsTest {

  @Test
  void everyValueBecomesAStringAndTimestampsHaveMilliseconds() {
    String line =
        CanonicalRows.line(
            List.of("id", "amount", "at", "day", "note"),
            new Object[] {
              7L,
              new BigDecimal("1.50"),
              LocalDateTime.of(2026, 1, 2, 3, 4, 5, 600_000_000),
              LocalDate.of(2026, 1, 2),
              null
            });

    assertThat(line)
        .isEqualTo(
            "{\"id\":\"7\",\"amount\":\"1.50\",\"at\":\"2026-01-02 03:04:05.600\","
                + "\"day\":\"2026-01-02\",\"note\":null}");
  }

  @Test
  void theSameInstantReadsTheSameFromJdbcAndIceberg() {
    LocalDateTime wall = LocalDateTime.of(2026, 5, 6, 7, 8, 9, 123_000_000);

    assertThat(CanonicalRows.text(Timestamp.valueOf(wall))).isEqualTo(CanonicalRows.text(wall));
    assertThat(CanonicalRows.text(OffsetDateTime.of(wall, ZoneOffset.ofHours(2))))
        .isEqualTo("2026-05-06 05:08:09.123");
    assertThat(CanonicalRows.text(42)).isEqualTo(CanonicalRows.text(42L));
  }
}
