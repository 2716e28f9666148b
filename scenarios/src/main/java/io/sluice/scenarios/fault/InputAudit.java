package io.sluice.scenarios.fault;

import io.sluice.dlq.DlqEnvelope;
import io.sluice.dlq.Sha256;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ScenarioStack;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The router's exactly-once promise over a run, read_committed: every record written to the main
 * topic since the workload started is in {@code .clean} (same partition, key and value bytes) or in
 * {@code .dlq} (by its original coordinates), exactly once; each poison record is in the DLQ once.
 *
 * @param inputs main-topic records since the workload started
 * @param poisonInputs of those, the poison records the workload sent
 * @param cleanMatched valid inputs with exactly one clean copy
 * @param cleanExtra clean records with no input (duplicates included)
 * @param dlqOfPoison DLQ records naming a poison record's coordinates
 * @param dlqDuplicates DLQ records naming coordinates another DLQ record names already
 * @param dlqOther DLQ records naming anything else
 */
record InputAudit(
    long inputs,
    long poisonInputs,
    long cleanMatched,
    long cleanExtra,
    long dlqOfPoison,
    long dlqDuplicates,
    long dlqOther) {
  static InputAudit of(
      ScenarioStack stack, FaultStep.WorkloadStart start, List<ProducerMetadata> poison) {
    Set<String> poisonIds = new HashSet<>();
    poison.forEach(p -> poisonIds.add(p.partition() + "@" + p.offset()));
    Map<String, Long> expected = new HashMap<>();
    long inputs = 0;
    long poisonInputs = 0;
    for (ConsumerRecord<byte[], byte[]> r : stack.readCommitted(ScenarioStack.MAIN_TOPIC)) {
      if (r.offset() < start.mainEnd().getOrDefault(r.partition(), 0L)) {
        continue;
      }
      inputs++;
      if (poisonIds.contains(r.partition() + "@" + r.offset())) {
        poisonInputs++;
      } else {
        expected.merge(identity(r), 1L, Long::sum);
      }
    }
    long matched = 0;
    long extra = 0;
    for (ConsumerRecord<byte[], byte[]> r : stack.readCommitted(ScenarioStack.CLEAN_TOPIC)) {
      if (r.offset() < start.cleanEnd().getOrDefault(r.partition(), 0L)) {
        continue;
      }
      String id = identity(r);
      Long left = expected.get(id);
      if (left != null && left > 0) {
        expected.put(id, left - 1);
        matched++;
      } else {
        extra++;
      }
    }
    Set<String> seen = new HashSet<>();
    long ofPoison = 0;
    long duplicates = 0;
    long other = 0;
    for (ConsumerRecord<byte[], byte[]> r : stack.dlqRecordsSince(start.baseline().dlqBefore())) {
      String original = original(r);
      if (!seen.add(original)) {
        duplicates++;
      } else if (poisonIds.contains(original)) {
        ofPoison++;
      } else {
        other++;
      }
    }
    return new InputAudit(inputs, poisonInputs, matched, extra, ofPoison, duplicates, other);
  }

  /** Every poison record sent is in the main topic and in the DLQ exactly once. */
  boolean eachPoisonOnce() {
    return dlqDuplicates == 0 && dlqOther == 0 && dlqOfPoison == poisonInputs && poisonInputs > 0;
  }

  /** Every input reached clean or the DLQ, nothing twice, nothing else. */
  boolean everyInputOnce() {
    return cleanMatched + dlqOfPoison == inputs && cleanExtra == 0 && dlqDuplicates == 0;
  }

  String describe() {
    return inputs
        + " records on the main topic ("
        + poisonInputs
        + " poison): "
        + cleanMatched
        + " once in clean, "
        + dlqOfPoison
        + " poison once in the DLQ; "
        + cleanExtra
        + " clean and "
        + dlqDuplicates
        + " DLQ duplicates, "
        + dlqOther
        + " other DLQ records";
  }

  private static String identity(ConsumerRecord<byte[], byte[]> r) {
    return r.partition()
        + "/"
        + (r.key() == null ? "-" : Sha256.hex(r.key()))
        + "/"
        + (r.value() == null ? "-" : Sha256.hex(r.value()));
  }

  /** {@code partition@offset} of the record a DLQ record quarantined. */
  private static String original(ConsumerRecord<byte[], byte[]> dlq) {
    try {
      DlqEnvelope envelope = DlqEnvelope.fromJson(dlq.value());
      return envelope.originalPartition() + "@" + envelope.originalOffset();
    } catch (IllegalArgumentException e) {
      // Counted as a DLQ record naming something else: everyInputOnce then fails.
      return "unreadable@" + dlq.partition() + "/" + dlq.offset();
    }
  }
}
