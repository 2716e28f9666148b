package io.sluice.scenarios.poison;

import io.sluice.dlq.DlqEnvelope;
import io.sluice.dlq.DlqHeaders;
import io.sluice.scenarios.ProducerMetadata;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/** Reads the DLQ topic for the poison's record and checks what the router wrote in it. */
public final class PoisonDlqRecords {
  private PoisonDlqRecords() {}

  /** True when {@code record}'s envelope names the poison at {@code poisonAt} as its original. */
  public static boolean isOf(ConsumerRecord<byte[], byte[]> record, ProducerMetadata poisonAt) {
    try {
      DlqEnvelope e = DlqEnvelope.fromJson(record.value());
      return e.originalTopic().equals(poisonAt.topic())
          && e.originalPartition() == poisonAt.partition()
          && e.originalOffset() == poisonAt.offset();
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * True when the envelope of {@code record} carries the error (type, message, code, when) and the
   * original's timestamp, and the record the DLQ headers of Kafka Streams and Sluice.
   */
  public static boolean hasErrorMetadata(
      ConsumerRecord<byte[], byte[]> record, DlqEnvelope e, ProducerMetadata poisonAt) {
    Set<String> headers = new HashSet<>();
    for (Header h : record.headers()) {
      headers.add(h.key());
    }
    return e.dlqSchemaVersion() == DlqEnvelope.VERSION
        && e.quarantinedAt() != null
        && notBlank(e.errorType())
        && notBlank(e.errorMessage())
        && notBlank(e.errorCode())
        && e.originalTimestampMs() == poisonAt.timestampMs()
        && headers.containsAll(
            List.of(
                DlqHeaders.ERRORS_TOPIC,
                DlqHeaders.ERRORS_PARTITION,
                DlqHeaders.ERRORS_OFFSET,
                DlqHeaders.ERRORS_EXCEPTION,
                DlqHeaders.ERRORS_MESSAGE,
                DlqHeaders.ERROR_CODE));
  }

  private static boolean notBlank(String s) {
    return s != null && !s.isBlank();
  }
}
