package io.sluice.scenarios.step;

import io.sluice.dlq.DlqEnvelope;
import io.sluice.dlq.DlqHeaders;
import io.sluice.dlq.Sha256;
import io.sluice.scenarios.ProducerMetadata;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * What the router did with a record a scenario injected ({@link QuarantineSteps#quarantined}): its
 * DLQ record, the DLQ records since the baseline, how far the router committed, and whether it kept
 * running. The checks the scenarios share are read from it.
 *
 * @param injectedAt where the injected record landed on the main topic
 * @param dlqRecordCount DLQ records written since the baseline
 * @param ofInjected of those, the ones whose envelope names the injected record
 * @param committed the router's committed offset of the injected record's partition (null: none)
 * @param routerHealth the router's health after the record
 * @param threadReplacements the router's stream-thread replacements so far
 */
public record Quarantined(
    ProducerMetadata injectedAt,
    ConsumerRecord<byte[], byte[]> dlqRecord,
    DlqEnvelope envelope,
    long dlqRecordCount,
    long ofInjected,
    Long committed,
    String routerHealth,
    long threadReplacements) {

  /** True when {@code record}'s envelope names the record at {@code injectedAt} as its original. */
  public static boolean isOf(ConsumerRecord<byte[], byte[]> record, ProducerMetadata injectedAt) {
    try {
      DlqEnvelope e = DlqEnvelope.fromJson(record.value());
      return e.originalTopic().equals(injectedAt.topic())
          && e.originalPartition() == injectedAt.partition()
          && e.originalOffset() == injectedAt.offset();
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The DLQ record is the only one since the baseline, and it is of the injected record. */
  public boolean onlyRecordOfInjected() {
    return ofInjected == 1 && dlqRecordCount == 1;
  }

  /** The router committed past the injected record. */
  public boolean committedPast() {
    return committed != null && committed > injectedAt.offset();
  }

  /** The router runs with the stream threads it had before the record. */
  public boolean routerSurvived(long threadReplacementsBefore) {
    return routerHealth.equals("RUNNING") && threadReplacements == threadReplacementsBefore;
  }

  /** The DLQ record holds the injected {@code key} and {@code value} unchanged, and their hash. */
  public boolean preserved(byte[] key, byte[] value) {
    return Arrays.equals(envelope.originalValue(), value)
        && Arrays.equals(envelope.originalKey(), key)
        && Sha256.hex(value).equals(envelope.originalValueSha256());
  }

  /**
   * True when the envelope carries the error (type, message, code, when) and the original's
   * timestamp, and the record the DLQ headers of Kafka Streams and Sluice.
   */
  public boolean hasErrorMetadata() {
    Set<String> headers = new HashSet<>();
    for (Header h : dlqRecord.headers()) {
      headers.add(h.key());
    }
    return envelope.dlqSchemaVersion() == DlqEnvelope.VERSION
        && envelope.quarantinedAt() != null
        && notBlank(envelope.errorType())
        && notBlank(envelope.errorMessage())
        && notBlank(envelope.errorCode())
        && envelope.originalTimestampMs() == injectedAt.timestampMs()
        && headers.containsAll(
            List.of(
                DlqHeaders.ERRORS_TOPIC,
                DlqHeaders.ERRORS_PARTITION,
                DlqHeaders.ERRORS_OFFSET,
                DlqHeaders.ERRORS_EXCEPTION,
                DlqHeaders.ERRORS_MESSAGE,
                DlqHeaders.ERROR_CODE));
  }

  /** {@code topic-partition@offset} of the DLQ record, as progress lines name it. */
  public String dlqRecordName() {
    return dlqRecord.topic() + "-" + dlqRecord.partition() + "@" + dlqRecord.offset();
  }

  private static boolean notBlank(String s) {
    return s != null && !s.isBlank();
  }
}
