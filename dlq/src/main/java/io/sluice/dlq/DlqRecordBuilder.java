package io.sluice.dlq;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Builds the value and headers of the DLQ record for one refused record, for the router or, with
 * {@link #forSink}, for a Kafka Connect sink task.
 */
public final class DlqRecordBuilder {
  /** The {@code __connect.errors.stage} of a record a sink task refused in {@code put}. */
  public static final String STAGE_TASK_PUT = "TASK_PUT";

  private final DlqFormat format;
  private final String applicationId;
  private final Clock clock;
  private final SinkTask sink;

  /**
   * The Connect sink task that refused records.
   *
   * @param connector the connector name
   * @param task the task index
   * @param className the class that refused the record ({@code __connect.errors.class.name})
   */
  public record SinkTask(String connector, int task, String className) {}

  public DlqRecordBuilder(DlqFormat format, String applicationId, Clock clock) {
    this(format, applicationId, clock, null);
  }

  private DlqRecordBuilder(DlqFormat format, String applicationId, Clock clock, SinkTask sink) {
    this.format = format;
    this.applicationId = applicationId;
    this.clock = clock;
    this.sink = sink;
  }

  /**
   * Envelopes for records {@code sink} refused: they name the connector and task ({@code
   * router_application_id} stays null) and carry Connect's {@code __connect.errors.*} headers
   * beside Sluice's.
   */
  public static DlqRecordBuilder forSink(SinkTask sink, Clock clock) {
    return new DlqRecordBuilder(DlqFormat.ENVELOPE, null, clock, sink);
  }

  /** Where the refused record came from and what it held. */
  public record Original(
      String topic,
      int partition,
      long offset,
      long timestampMs,
      byte[] key,
      byte[] value,
      Headers headers) {}

  /** The DLQ value: envelope v1 JSON, or the original value bytes in raw mode. */
  public byte[] value(Original original, Rejection rejection) {
    return value(original, rejection, null);
  }

  /**
   * The DLQ value of a record a sink did not write to {@code sinkTable} (named in the envelope's
   * {@code sink_table}, so the record says which table lacks it).
   */
  public byte[] value(Original original, Rejection rejection, String sinkTable) {
    if (format == DlqFormat.RAW) {
      return original.value();
    }
    return envelope(original, rejection, sinkTable).toJsonBytes();
  }

  /** The envelope for {@code original}. */
  public DlqEnvelope envelope(Original original, Rejection rejection) {
    return envelope(original, rejection, null);
  }

  /** The envelope for {@code original}, naming the table a sink did not write it to. */
  public DlqEnvelope envelope(Original original, Rejection rejection, String sinkTable) {
    List<DlqEnvelope.HeaderEntry> headers = new ArrayList<>();
    for (Header header : original.headers()) {
      headers.add(new DlqEnvelope.HeaderEntry(header.key(), base64(header.value())));
    }
    return new DlqEnvelope(
        DlqEnvelope.VERSION,
        clock.instant(),
        original.topic(),
        original.partition(),
        original.offset(),
        original.timestampMs(),
        base64(original.key()),
        base64(original.value()),
        rejection.errorType(),
        rejection.message(),
        rejection.code(),
        rejection.schemaId(),
        rejection.keySchemaId(),
        headers,
        Sha256.hex(original.value()),
        applicationId,
        sink == null ? null : sink.connector(),
        sink == null ? null : sink.task(),
        sink == null ? null : sinkTable);
  }

  /** The original headers followed by the {@link DlqHeaders} error headers. */
  public Headers headers(Original original, Rejection rejection) {
    RecordHeaders headers = new RecordHeaders(original.headers().toArray());
    add(headers, DlqHeaders.ERRORS_TOPIC, original.topic());
    add(headers, DlqHeaders.ERRORS_PARTITION, String.valueOf(original.partition()));
    add(headers, DlqHeaders.ERRORS_OFFSET, String.valueOf(original.offset()));
    add(headers, DlqHeaders.ERRORS_EXCEPTION, rejection.errorType());
    add(headers, DlqHeaders.ERRORS_MESSAGE, rejection.message());
    add(headers, DlqHeaders.ERROR_CODE, rejection.code());
    if (sink != null) {
      add(headers, DlqHeaders.CONNECT_TOPIC, original.topic());
      add(headers, DlqHeaders.CONNECT_PARTITION, String.valueOf(original.partition()));
      add(headers, DlqHeaders.CONNECT_OFFSET, String.valueOf(original.offset()));
      add(headers, DlqHeaders.CONNECT_CONNECTOR_NAME, sink.connector());
      add(headers, DlqHeaders.CONNECT_TASK_ID, String.valueOf(sink.task()));
      add(headers, DlqHeaders.CONNECT_STAGE, STAGE_TASK_PUT);
      add(headers, DlqHeaders.CONNECT_CLASS_NAME, sink.className());
      add(headers, DlqHeaders.CONNECT_EXCEPTION_CLASS_NAME, rejection.errorType());
      add(headers, DlqHeaders.CONNECT_EXCEPTION_MESSAGE, rejection.message());
    }
    return headers;
  }

  private static void add(RecordHeaders headers, String key, String value) {
    headers.add(key, value.getBytes(StandardCharsets.UTF_8));
  }

  private static String base64(byte[] bytes) {
    return bytes == null ? null : Base64.getEncoder().encodeToString(bytes);
  }
}
