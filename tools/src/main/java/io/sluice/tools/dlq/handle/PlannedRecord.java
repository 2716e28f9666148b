package io.sluice.tools.dlq.handle;

import io.sluice.dlq.Sha256;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What replaying or repairing one DLQ record would produce.
 *
 * @param action replay or repair
 * @param strategy the repair strategy, null for a replay
 * @param record the record to produce (partition null: the producer's partitioner picks it)
 * @param partition where the record lands: the explicit partition, or the key's partition
 * @param key the key's identity, for the stale-write guard
 * @param valueSchemaId the schema id in the value's header, null when it has none
 * @param detail one line about the content for the dry run, e.g. "op c" (never payload bytes)
 */
public record PlannedRecord(
    LedgerEntry.Action action,
    String strategy,
    ProducerRecord<byte[], byte[]> record,
    int partition,
    KeyIdentity key,
    Integer valueSchemaId,
    String detail) {

  /** Lower-case hex sha256 of the value to produce. */
  public String valueSha256() {
    return Sha256.hex(record.value());
  }

  /** One line: topic, partition, key, schema id, value sha256 and detail. */
  public String describe() {
    return "topic "
        + record.topic()
        + ", partition "
        + partition
        + (record.partition() == null ? " (the key's partition)" : "")
        + ", key "
        + key.describe()
        + ", value schema id "
        + (valueSchemaId == null ? "none" : valueSchemaId)
        + ", value sha256 "
        + (record.value() == null ? "(null value)" : valueSha256())
        + (detail == null ? "" : ", " + detail);
  }
}
