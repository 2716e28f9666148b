package io.sluice.tools.dlq.repair;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Dates and times written as text in intended rows. Timestamps without a zone are UTC, as
 * Debezium's {@code io.debezium.time.Timestamp} takes a {@code DATETIME}: {@code yyyy-MM-dd
 * HH:mm:ss[.fraction]}, a {@code T} instead of the space, an optional {@code Z} or offset, or a
 * date alone (midnight).
 */
final class TemporalText {
  private TemporalText() {}

  /** The instant of a timestamp text, or null when it is not one. */
  static Instant instant(String text) {
    String t = text.trim();
    try {
      if (t.length() == 10) {
        return LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
      }
      if (t.length() > 10 && t.charAt(10) == ' ') {
        t = t.substring(0, 10) + 'T' + t.substring(11);
      }
      if (t.endsWith("Z") || t.endsWith("z") || hasOffset(t)) {
        return OffsetDateTime.parse(t.endsWith("z") ? t.toUpperCase() : t).toInstant();
      }
      return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
    } catch (DateTimeException e) {
      return null;
    }
  }

  /** Days since 1970-01-01 of a {@code yyyy-MM-dd} text, or null. */
  static Long epochDay(String text) {
    try {
      return LocalDate.parse(text.trim()).toEpochDay();
    } catch (DateTimeException e) {
      return null;
    }
  }

  /** Nanoseconds since midnight of a {@code HH:mm[:ss[.fraction]]} text, or null. */
  static Long nanoOfDay(String text) {
    try {
      return LocalTime.parse(text.trim()).toNanoOfDay();
    } catch (DateTimeException e) {
      return null;
    }
  }

  private static boolean hasOffset(String t) {
    int time = t.indexOf('T');
    if (time < 0) {
      return false;
    }
    String clock = t.substring(time);
    return clock.indexOf('+') > 0 || clock.indexOf('-') > 0;
  }
}
