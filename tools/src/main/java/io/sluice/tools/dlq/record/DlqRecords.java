package io.sluice.tools.dlq.record;

import io.sluice.dlq.DlqEnvelope;
import io.sluice.dlq.DlqHeaders;
import io.sluice.dlq.Sha256;
import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.kafka.TopicScanner;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Turns DLQ records into {@link DlqEntry}s. The value is read with {@link DlqEnvelope#fromJson};
 * when it is not an envelope but the record carries the {@code __streams.errors.*} headers, it is a
 * {@code dlq.format=raw} record: the value and key are the original bytes and the headers say where
 * they came from.
 */
public final class DlqRecords {
  private static final Set<String> ERROR_HEADERS =
      Set.of(
          DlqHeaders.ERRORS_TOPIC,
          DlqHeaders.ERRORS_PARTITION,
          DlqHeaders.ERRORS_OFFSET,
          DlqHeaders.ERRORS_EXCEPTION,
          DlqHeaders.ERRORS_MESSAGE,
          DlqHeaders.ERROR_CODE);

  private static final String CONNECT_HEADER_PREFIX = "__connect.errors.";

  private DlqRecords() {}

  /** The entry for one record of the DLQ topic; never throws for bad content. */
  public static DlqEntry entry(ConsumerRecord<byte[], byte[]> record) {
    Coordinates at = new Coordinates(record.topic(), record.partition(), record.offset());
    List<Header> headers = Arrays.asList(record.headers().toArray());
    String envelopeProblem;
    if (record.value() == null) {
      envelopeProblem = "the value is null";
    } else {
      try {
        DlqEnvelope envelope = DlqEnvelope.fromJson(record.value());
        return new DlqEntry(
            at, record.timestamp(), envelope, DlqEntry.Format.ENVELOPE, headers, null);
      } catch (IllegalArgumentException | java.time.DateTimeException e) {
        envelopeProblem = e.getMessage();
      }
    }
    if (header(record, DlqHeaders.ERRORS_TOPIC) != null) {
      try {
        return new DlqEntry(
            at, record.timestamp(), fromHeaders(record), DlqEntry.Format.RAW, headers, null);
      } catch (IllegalArgumentException e) {
        return new DlqEntry(at, record.timestamp(), null, null, headers, e.getMessage());
      }
    }
    if (header(record, DlqHeaders.CONNECT_TOPIC) != null) {
      try {
        return new DlqEntry(
            at, record.timestamp(), fromConnect(record), DlqEntry.Format.CONNECT, headers, null);
      } catch (IllegalArgumentException e) {
        return new DlqEntry(at, record.timestamp(), null, null, headers, e.getMessage());
      }
    }
    return new DlqEntry(
        at,
        record.timestamp(),
        null,
        null,
        headers,
        "not a DLQ envelope v1 ("
            + envelopeProblem
            + ") and no "
            + DlqHeaders.ERRORS_TOPIC
            + " or "
            + DlqHeaders.CONNECT_TOPIC
            + " header");
  }

  /**
   * Every record of {@code dlqTopic}, partition by partition, in offset order.
   *
   * @throws IllegalArgumentException when the topic does not exist
   */
  public static List<DlqEntry> readTopic(TopicScanner scanner, String dlqTopic) {
    if (scanner.partitions(dlqTopic).isEmpty()) {
      throw new IllegalArgumentException(
          "DLQ topic "
              + dlqTopic
              + " does not exist; pass the router's DLQ topic with --dlq-topic"
              + " (it is created when the router first sees its input topic)");
    }
    List<DlqEntry> entries = new ArrayList<>();
    scanner.readAll(dlqTopic, record -> entries.add(entry(record)));
    return entries;
  }

  /** The entry for an envelope v1 JSON exported elsewhere. */
  public static DlqEntry fromFile(String json) {
    return new DlqEntry(
        null, -1, DlqEnvelope.fromJson(json), DlqEntry.Format.FILE, List.of(), null);
  }

  private static DlqEnvelope fromHeaders(ConsumerRecord<byte[], byte[]> record) {
    List<DlqEnvelope.HeaderEntry> original = new ArrayList<>();
    for (Header header : record.headers()) {
      if (!ERROR_HEADERS.contains(header.key())) {
        original.add(new DlqEnvelope.HeaderEntry(header.key(), base64(header.value())));
      }
    }
    String exception = header(record, DlqHeaders.ERRORS_EXCEPTION);
    String message = header(record, DlqHeaders.ERRORS_MESSAGE);
    // A raw record has no quarantine time of its own; Kafka Streams keeps the input timestamp.
    return new DlqEnvelope(
        DlqEnvelope.VERSION,
        Instant.ofEpochMilli(record.timestamp()),
        header(record, DlqHeaders.ERRORS_TOPIC),
        (int) number(record, DlqHeaders.ERRORS_PARTITION),
        number(record, DlqHeaders.ERRORS_OFFSET),
        record.timestamp(),
        base64(record.key()),
        base64(record.value()),
        exception == null ? "" : exception,
        message == null ? "" : message,
        header(record, DlqHeaders.ERROR_CODE),
        null,
        null,
        original,
        Sha256.hex(record.value()),
        null,
        null,
        null,
        null);
  }

  /**
   * The envelope of a record Kafka Connect's DLQ wrote for a sink whose converter or transform
   * failed. Its code is {@code SINK_CONNECT_<stage>} (e.g. {@code SINK_CONNECT_VALUE_CONVERTER}).
   */
  private static DlqEnvelope fromConnect(ConsumerRecord<byte[], byte[]> record) {
    List<DlqEnvelope.HeaderEntry> original = new ArrayList<>();
    for (Header header : record.headers()) {
      if (!header.key().startsWith(CONNECT_HEADER_PREFIX)) {
        original.add(new DlqEnvelope.HeaderEntry(header.key(), base64(header.value())));
      }
    }
    String connector = header(record, DlqHeaders.CONNECT_CONNECTOR_NAME);
    String task = header(record, DlqHeaders.CONNECT_TASK_ID);
    String stage = header(record, DlqHeaders.CONNECT_STAGE);
    String exception = header(record, DlqHeaders.CONNECT_EXCEPTION_CLASS_NAME);
    String message = header(record, DlqHeaders.CONNECT_EXCEPTION_MESSAGE);
    return new DlqEnvelope(
        DlqEnvelope.VERSION,
        Instant.ofEpochMilli(record.timestamp()),
        header(record, DlqHeaders.CONNECT_TOPIC),
        (int) number(record, DlqHeaders.CONNECT_PARTITION),
        number(record, DlqHeaders.CONNECT_OFFSET),
        record.timestamp(),
        base64(record.key()),
        base64(record.value()),
        exception == null ? "" : exception,
        message == null ? "" : message,
        "SINK_CONNECT_" + (stage == null ? "UNKNOWN" : stage),
        null,
        null,
        original,
        Sha256.hex(record.value()),
        null,
        connector == null ? "unknown" : connector,
        task == null ? null : (int) number(record, DlqHeaders.CONNECT_TASK_ID),
        null);
  }

  private static long number(ConsumerRecord<byte[], byte[]> record, String name) {
    String text = header(record, name);
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "raw DLQ record has no numeric " + name + " header (got " + text + ")", e);
    }
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null || header.value() == null
        ? null
        : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static String base64(byte[] bytes) {
    return bytes == null ? null : Base64.getEncoder().encodeToString(bytes);
  }
}
