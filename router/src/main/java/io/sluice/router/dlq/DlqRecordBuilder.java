package io.sluice.router.dlq;

import io.sluice.router.config.DlqFormat;
import io.sluice.router.validate.Poison;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** Builds the value and headers of the DLQ record for one poison record. */
public final class DlqRecordBuilder {
  private final DlqFormat format;
  private final String applicationId;
  private final Clock clock;

  public DlqRecordBuilder(DlqFormat format, String applicationId, Clock clock) {
    this.format = format;
    this.applicationId = applicationId;
    this.clock = clock;
  }

  /** Where the poison record came from and what it held. */
  public record Original(
      String topic,
      int partition,
      long offset,
      long timestampMs,
      byte[] key,
      byte[] value,
      Headers headers) {}

  /** The DLQ value: envelope v1 JSON, or the original value bytes in raw mode. */
  public byte[] value(Original original, Poison poison) {
    if (format == DlqFormat.RAW) {
      return original.value();
    }
    return envelope(original, poison).toJsonBytes();
  }

  /** The envelope for {@code original}. */
  public DlqEnvelope envelope(Original original, Poison poison) {
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
        poison.errorType(),
        poison.message(),
        poison.code().name(),
        poison.schemaId(),
        poison.keySchemaId(),
        headers,
        sha256(original.value()),
        applicationId);
  }

  /** The original headers followed by the {@link DlqHeaders} error headers. */
  public Headers headers(Original original, Poison poison) {
    RecordHeaders headers = new RecordHeaders(original.headers().toArray());
    add(headers, DlqHeaders.ERRORS_TOPIC, original.topic());
    add(headers, DlqHeaders.ERRORS_PARTITION, String.valueOf(original.partition()));
    add(headers, DlqHeaders.ERRORS_OFFSET, String.valueOf(original.offset()));
    add(headers, DlqHeaders.ERRORS_EXCEPTION, poison.errorType());
    add(headers, DlqHeaders.ERRORS_MESSAGE, poison.message());
    add(headers, DlqHeaders.ERROR_CODE, poison.code().name());
    return headers;
  }

  /** Lower-case hex sha256 of {@code bytes}, or null for null. */
  public static String sha256(byte[] bytes) {
    if (bytes == null) {
      return null;
    }
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static void add(RecordHeaders headers, String key, String value) {
    headers.add(key, value.getBytes(StandardCharsets.UTF_8));
  }

  private static String base64(byte[] bytes) {
    return bytes == null ? null : Base64.getEncoder().encodeToString(bytes);
  }
}
