package io.sluice.dlq;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** Builds the value and headers of the DLQ record for one refused record. */
public final class DlqRecordBuilder {
  private final DlqFormat format;
  private final String applicationId;
  private final Clock clock;

  public DlqRecordBuilder(DlqFormat format, String applicationId, Clock clock) {
    this.format = format;
    this.applicationId = applicationId;
    this.clock = clock;
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
    if (format == DlqFormat.RAW) {
      return original.value();
    }
    return envelope(original, rejection).toJsonBytes();
  }

  /** The envelope for {@code original}. */
  public DlqEnvelope envelope(Original original, Rejection rejection) {
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
        applicationId);
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
    return headers;
  }

  private static void add(RecordHeaders headers, String key, String value) {
    headers.add(key, value.getBytes(StandardCharsets.UTF_8));
  }

  private static String base64(byte[] bytes) {
    return bytes == null ? null : Base64.getEncoder().encodeToString(bytes);
  }
}
