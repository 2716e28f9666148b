package io.sluice.tools.monitor;

import io.sluice.dlq.DlqFormat;
import io.sluice.dlq.DlqHeaders;
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

  /** The envelope value the upsert sink writes for a record it could not write. */
  static byte[] sinkValue(Coordinates original, long timestampMs, Instant at) {
    return sinkValue(original, timestampMs, at, 1);
  }

  /**
   * The envelope value the upsert sink's task {@code task} writes: a zombie task and its successor
   * write one each for the same input.
   */
  static byte[] sinkValue(Coordinates original, long timestampMs, Instant at, int task) {
    return sinkBuilder(at, task).value(original(original, timestampMs), sinkRejection());
  }

  /** The headers the upsert sink writes beside its envelope ({@code __connect.errors.*} too). */
  static Headers sinkHeaders(Coordinates original, long timestampMs) {
    return sinkHeaders(original, timestampMs, 1);
  }

  /** The headers the upsert sink's task {@code task} writes beside its envelope. */
  static Headers sinkHeaders(Coordinates original, long timestampMs, int task) {
    return sinkBuilder(Instant.EPOCH, task)
        .headers(original(original, timestampMs), sinkRejection());
  }

  /**
   * The headers Kafka Connect's own DLQ writes beside the original bytes when the changelog sink's
   * value converter failed on the record at {@code original}.
   */
  static Headers connectHeaders(Coordinates original) {
    Headers headers = new RecordHeaders();
    add(headers, DlqHeaders.CONNECT_TOPIC, original.topic());
    add(headers, DlqHeaders.CONNECT_PARTITION, String.valueOf(original.partition()));
    add(headers, DlqHeaders.CONNECT_OFFSET, String.valueOf(original.offset()));
    add(headers, DlqHeaders.CONNECT_CONNECTOR_NAME, "sluice-changelog-sink");
    add(headers, DlqHeaders.CONNECT_TASK_ID, "0");
    add(headers, DlqHeaders.CONNECT_STAGE, "VALUE_CONVERTER");
    add(headers, DlqHeaders.CONNECT_EXCEPTION_CLASS_NAME, "o.a.k.c.errors.DataException");
    add(headers, DlqHeaders.CONNECT_EXCEPTION_MESSAGE, "not in the Confluent wire format");
    return headers;
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

  private static DlqRecordBuilder sinkBuilder(Instant at, int task) {
    return DlqRecordBuilder.forSink(
        new DlqRecordBuilder.SinkTask(
            "sluice-upsert-sink", task, "io.sluice.connect.UpsertSinkTask"),
        Clock.fixed(at, ZoneOffset.UTC));
  }

  private static Rejection sinkRejection() {
    return new Rejection(
        "SINK_DECIMAL_OUT_OF_RANGE",
        "io.sluice.connect.upsert.quarantine.UnwritableRecordException",
        "column amount does not fit decimal(5, 2)",
        null,
        null);
  }

  private static void add(Headers headers, String key, String value) {
    headers.add(key, value.getBytes(StandardCharsets.UTF_8));
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
