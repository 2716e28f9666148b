package io.sluice.tools.dlq.record;

import io.sluice.dlq.DlqEnvelope;
import io.sluice.tools.dlq.kafka.Coordinates;
import java.util.List;
import org.apache.kafka.common.header.Header;

/**
 * One record of the DLQ topic, read back.
 *
 * @param dlq where it is in the DLQ topic; null for an envelope read from a file
 * @param timestampMs the DLQ record's timestamp (-1 from a file)
 * @param envelope the parsed envelope (reconstructed from the headers for {@code dlq.format=raw});
 *     null when the record could not be read
 * @param format {@link Format#ENVELOPE}, {@link Format#RAW} or {@link Format#FILE}
 * @param headers the DLQ record's own headers (error headers included)
 * @param problem why the record could not be read, or null
 */
public record DlqEntry(
    Coordinates dlq,
    long timestampMs,
    DlqEnvelope envelope,
    Format format,
    List<Header> headers,
    String problem) {

  /** How the record's original bytes and metadata were found. */
  public enum Format {
    /** Envelope v1 JSON value. */
    ENVELOPE,
    /** The original value bytes, metadata from the {@code __streams.errors.*} headers. */
    RAW,
    /**
     * The original bytes as Kafka Connect's own DLQ writes them (a sink's converter or transform
     * failed), metadata from the {@code __connect.errors.*} headers.
     */
    CONNECT,
    /** Envelope v1 JSON from a file (exported elsewhere). */
    FILE
  }

  public DlqEntry {
    headers = List.copyOf(headers);
  }

  /** True when the envelope could be read. */
  public boolean readable() {
    return envelope != null;
  }

  /** Where the poison record was in its original topic. */
  public Coordinates original() {
    return new Coordinates(
        envelope.originalTopic(), envelope.originalPartition(), envelope.originalOffset());
  }

  /**
   * Which stage quarantined the record: {@code router}, or {@code sink <connector>[/<task>]} (the
   * upsert sink's envelope, or Connect's own DLQ for a sink's converter and transforms); {@code -}
   * when the record could not be read.
   */
  public String stage() {
    if (envelope == null) {
      return "-";
    }
    if (!envelope.quarantinedBySink()) {
      return "router";
    }
    return "sink "
        + envelope.sinkConnector()
        + (envelope.sinkTask() == null ? "" : "/" + envelope.sinkTask());
  }

  /** How to name this record in messages: its DLQ coordinates, or the file's original ones. */
  public String describe() {
    if (dlq != null) {
      return "DLQ record " + dlq;
    }
    return "envelope from file (original " + original() + ")";
  }
}
