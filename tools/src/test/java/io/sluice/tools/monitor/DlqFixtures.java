package io.sluice.tools.monitor;

import io.sluice.dlq.DlqFormat;
import io.sluice.dlq.DlqRecordBuilder;
import io.sluice.dlq.Rejection;
import io.sluice.schema.wire.WireFormatException;
import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * DLQ records and ledger entries as the router and the DLQ tools write them: values and headers
 * from the router's {@link DlqRecordBuilder}, entries in the tools' {@link LedgerEntry} format.
 */
final class DlqFixtures {
  private DlqFixtures() {}

  /** The poison record that was at {@code original}, produced at {@code timestampMs}. */
  static DlqRecordBuilder.Original original(Coordinates original, long timestampMs) {
    return new DlqRecordBuilder.Original(
        original.topic(),
        original.partition(),
        original.offset(),
        timestampMs,
        "{\"order_id\":1}".getBytes(StandardCharsets.UTF_8),
        "{\"not\":\"avro\"}".getBytes(StandardCharsets.UTF_8),
        new RecordHeaders());
  }

  /** The DLQ value the router writes in {@code format} for a record quarantined at {@code at}. */
  static byte[] value(DlqFormat format, Coordinates original, long timestampMs, Instant at) {
    return builder(format, at).value(original(original, timestampMs), poison());
  }

  /** The DLQ headers the router writes (the same in both formats). */
  static Headers headers(Coordinates original, long timestampMs) {
    return builder(DlqFormat.ENVELOPE, Instant.EPOCH)
        .headers(original(original, timestampMs), poison());
  }

  /** The ledger key the tools write for the DLQ record at {@code dlq}. */
  static String ledgerKey(Coordinates dlq) {
    return Ledger.keyOf(dlq);
  }

  /** The ledger key the tools write for an envelope repaired from a file. */
  static String fileLedgerKey(Coordinates original) {
    return "file:" + original.topic() + ":" + original.partition() + ":" + original.offset();
  }

  /**
   * A ledger entry: the DLQ record at {@code dlq} (null: from a file) handled by {@code action}.
   */
  static LedgerEntry entry(LedgerEntry.Action action, Coordinates dlq, Coordinates original) {
    return new LedgerEntry(
        action,
        action == LedgerEntry.Action.REPAIR ? "json-intended-row" : null,
        Instant.parse("2026-03-01T12:00:00Z"),
        dlq,
        original,
        new Coordinates(original.topic(), original.partition(), original.offset() + 100),
        false,
        "ab");
  }

  private static DlqRecordBuilder builder(DlqFormat format, Instant at) {
    return new DlqRecordBuilder(format, "sluice-router", Clock.fixed(at, ZoneOffset.UTC));
  }

  private static Rejection poison() {
    return new Rejection(
        "NOT_AVRO_WIRE_FORMAT",
        WireFormatException.class.getName(),
        "magic byte is not 0",
        null,
        null);
  }
}
