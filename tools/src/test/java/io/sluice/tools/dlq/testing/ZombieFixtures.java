package io.sluice.tools.dlq.testing;

import io.sluice.dlq.DlqFormat;
import io.sluice.dlq.DlqRecordBuilder;
import io.sluice.dlq.Rejection;
import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.record.DlqEntry;
import io.sluice.tools.dlq.record.DlqRecords;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/**
 * Fixed DLQ records of one input quarantined twice, as a zombie upsert sink task and its successor
 * both write it before the Iceberg offset fence stops the zombie: the same envelope and {@code
 * __connect.errors.*} headers (the task id aside), at two DLQ offsets.
 */
public final class ZombieFixtures {
  public static final String DLQ = "broker.cdc_lab.orders.dlq";
  public static final Coordinates CLEAN_INPUT =
      new Coordinates("broker.cdc_lab.orders.clean", 1, 40);
  public static final Coordinates MAIN_INPUT = new Coordinates("broker.cdc_lab.orders", 1, 41);
  public static final Instant ZOMBIE_AT = Instant.parse("2026-03-01T10:00:00Z");
  public static final Instant SUCCESSOR_AT = Instant.parse("2026-03-01T10:00:02Z");
  public static final String UPSERT_SINK = "sluice-upsert-sink";

  private ZombieFixtures() {}

  /** The DLQ record the upsert sink's task {@code task} writes for {@code input}. */
  public static DlqEntry sink(
      int partition, long offset, String connector, int task, Coordinates input, Instant at) {
    DlqRecordBuilder builder = sinkBuilder(connector, task, at);
    return DlqRecords.entry(
        record(
            partition,
            offset,
            builder.value(original(input), rejection(), "cdc_lab.orders_current"),
            builder.headers(original(input), rejection())));
  }

  /** The DLQ record the router writes for {@code input}. */
  public static DlqEntry router(int partition, long offset, Coordinates input) {
    DlqRecordBuilder builder =
        new DlqRecordBuilder(
            DlqFormat.ENVELOPE, "sluice-router", Clock.fixed(ZOMBIE_AT, ZoneOffset.UTC));
    Rejection poison =
        new Rejection("NOT_AVRO_WIRE_FORMAT", "x.WireFormatException", "m", null, null);
    return DlqRecords.entry(
        record(
            partition,
            offset,
            builder.value(original(input), poison),
            builder.headers(original(input), poison)));
  }

  /** The envelope the upsert sink's task 0 writes for {@code input} at {@code at}. */
  public static byte[] sinkValue(Coordinates input, Instant at) {
    return sinkBuilder(UPSERT_SINK, 0, at).value(original(input), rejection());
  }

  private static DlqRecordBuilder sinkBuilder(String connector, int task, Instant at) {
    return DlqRecordBuilder.forSink(
        new DlqRecordBuilder.SinkTask(connector, task, "io.sluice.connect.upsert.UpsertSinkTask"),
        Clock.fixed(at, ZoneOffset.UTC));
  }

  private static DlqRecordBuilder.Original original(Coordinates input) {
    return new DlqRecordBuilder.Original(
        input.topic(),
        input.partition(),
        input.offset(),
        1_700_000_000_000L,
        bytes("{\"order_id\":1}"),
        bytes("{\"amount\":\"12345.678\"}"),
        new RecordHeaders());
  }

  private static Rejection rejection() {
    return new Rejection(
        "SINK_DECIMAL_OUT_OF_RANGE",
        "io.sluice.connect.upsert.quarantine.RecordRejectedException",
        "column amount does not fit decimal(5, 2)",
        null,
        null);
  }

  /** A record of {@link #DLQ} with {@code value} and {@code headers}. */
  public static ConsumerRecord<byte[], byte[]> record(
      int partition, long offset, byte[] value, Headers headers) {
    return new ConsumerRecord<>(
        DLQ,
        partition,
        offset,
        1_700_000_000_000L,
        TimestampType.CREATE_TIME,
        -1,
        value.length,
        bytes("{\"order_id\":1}"),
        value,
        headers,
        Optional.empty());
  }

  public static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
