package io.sluice.tools.dlq.handle;

import io.sluice.dlq.DlqEnvelope;
import io.sluice.schema.wire.WireFormat;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqEntry;
import io.sluice.tools.dlq.repair.RepairException;
import java.util.function.ToIntFunction;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Replay: the original key, value and headers, unchanged, to the original topic and partition
 * (after the cause was fixed, e.g. a missing schema registered).
 */
public final class ReplayPlanner implements Planner {
  private final KeyDecoder keys;
  private final ToIntFunction<String> partitionCount;

  /**
   * @param partitionCount the partition count of a topic; throws when it does not exist
   */
  public ReplayPlanner(KeyDecoder keys, ToIntFunction<String> partitionCount) {
    this.keys = keys;
    this.partitionCount = partitionCount;
  }

  @Override
  public PlannedRecord plan(DlqEntry entry) {
    DlqEnvelope envelope = entry.envelope();
    int partitions = partitionCount.applyAsInt(envelope.originalTopic());
    if (envelope.originalPartition() >= partitions) {
      throw new RepairException(
          "original partition "
              + entry.original()
              + " does not exist: "
              + envelope.originalTopic()
              + " has "
              + partitions
              + " partitions now");
    }
    RecordHeaders headers = new RecordHeaders();
    envelope.originalHeaders().forEach(h -> headers.add(h.key(), h.value()));
    byte[] key = envelope.originalKey();
    byte[] value = envelope.originalValue();
    ProducerRecord<byte[], byte[]> record =
        new ProducerRecord<>(
            envelope.originalTopic(), envelope.originalPartition(), null, key, value, headers);
    return new PlannedRecord(
        LedgerEntry.Action.REPLAY,
        null,
        record,
        envelope.originalPartition(),
        keys.identify(key),
        WireFormat.hasHeader(value) ? WireFormat.schemaId(value) : null,
        "original bytes (" + (value == null ? 0 : value.length) + " bytes)");
  }
}
