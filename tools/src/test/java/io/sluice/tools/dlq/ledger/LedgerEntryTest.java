package io.sluice.tools.dlq.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.tools.dlq.kafka.Coordinates;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LedgerEntryTest {
  private static final String FIXTURE =
      "{\"ledger_version\":1,\"action\":\"repair\",\"strategy\":\"json-intended-row\","
          + "\"handled_at\":\"2026-03-01T12:00:00Z\","
          + "\"dlq\":{\"topic\":\"o.dlq\",\"partition\":1,\"offset\":3},"
          + "\"original\":{\"topic\":\"o\",\"partition\":1,\"offset\":41},"
          + "\"produced\":{\"topic\":\"o\",\"partition\":2,\"offset\":57},"
          + "\"forced\":true,\"value_sha256\":\"ab\"}";

  private static final LedgerEntry ENTRY =
      new LedgerEntry(
          LedgerEntry.Action.REPAIR,
          "json-intended-row",
          Instant.parse("2026-03-01T12:00:00Z"),
          new Coordinates("o.dlq", 1, 3),
          new Coordinates("o", 1, 41),
          new Coordinates("o", 2, 57),
          true,
          "ab");

  @Test
  void writesTheFixture() {
    assertThat(new String(ENTRY.toJsonBytes(), StandardCharsets.UTF_8)).isEqualTo(FIXTURE);
  }

  @Test
  void readsTheFixture() {
    assertThat(LedgerEntry.fromJson(FIXTURE.getBytes(StandardCharsets.UTF_8))).isEqualTo(ENTRY);
  }

  @Test
  void aReplayFromAFileHasNoStrategyAndNoDlqCoordinates() {
    LedgerEntry replay =
        new LedgerEntry(
            LedgerEntry.Action.REPLAY,
            null,
            ENTRY.handledAt(),
            null,
            ENTRY.original(),
            ENTRY.produced(),
            false,
            "cd");

    assertThat(LedgerEntry.fromJson(replay.toJsonBytes())).isEqualTo(replay);
  }

  @Test
  void anotherVersionIsRefused() {
    assertThatThrownBy(
            () -> LedgerEntry.fromJson("{\"ledger_version\":2}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ledger_version 2 is not supported (expected 1)");
  }
}
