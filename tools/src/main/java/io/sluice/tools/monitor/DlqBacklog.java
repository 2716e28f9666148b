package io.sluice.tools.monitor;

import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqEntry;
import io.sluice.tools.dlq.record.DlqRecords;
import io.sluice.tools.dlq.record.InputIdentity;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state behind one DLQ topic's metrics, fed with its records and its ledger's records; no
 * broker. A DLQ record counts as handled exactly when the DLQ tools would skip it: its ledger key
 * or its original coordinates are in the ledger ({@link Ledger#find(Coordinates, Coordinates)}).
 *
 * <p>The backlog and the input counts are by quarantined input ({@link InputIdentity}), as the DLQ
 * tools act: a zombie sink task may write a second DLQ record of an input, which is counted among
 * the records but is no second input, and the input leaves the backlog once a ledger entry handles
 * any of its records.
 *
 * <p>State is mostly what is still to do: besides the ledger (what the tools load too), only the
 * unhandled inputs are kept, as coordinates and a quarantine time; of the others only one number
 * per input (its original offset, under its stage, connector and original partition), so a later
 * copy is not counted as an input again. A handled record is dropped. So when a tombstone (or a
 * rewrite) takes back an entry, a record it handled may have to come back: {@link #takeRescan()}
 * then asks the caller to read the DLQ topic again from the beginning, which rebuilds the unhandled
 * records without counting any record twice.
 *
 * <p>The quarantine time is the envelope's {@code quarantined_at} (the router's clock when it
 * quarantined the record). Kafka Streams gives a DLQ record the input record's timestamp, so the
 * record timestamp says when the poison record was produced, not when it was quarantined; for a
 * {@code dlq.format=raw} record, which has no envelope, that timestamp is all there is.
 *
 * <p>Records, inputs and backlog are counted per {@link QuarantineCause}: the stage that
 * quarantined the record (the router, or a sink: the upsert sink's envelope or Connect's own DLQ
 * record) and its error code.
 *
 * <p>A DLQ record that cannot be read (neither an envelope v1 nor a raw DLQ record) is counted and
 * left out of the backlog: no tool can replay or repair it. Only its coordinates are logged.
 */
final class DlqBacklog {
  private static final Logger log = LoggerFactory.getLogger(DlqBacklog.class);

  private final String dlqTopic;
  private final Ledger ledger;
  private final Map<InputIdentity, Unhandled> unhandled = new HashMap<>();
  private final Map<InputSource, Set<Long>> inputsSeen = new HashMap<>();
  // Per DLQ partition: offsets below this were counted already (a rescan counts nothing again).
  private final Map<Integer, Long> countedUpTo = new HashMap<>();
  private final Map<QuarantineCause, Long> records = new HashMap<>();
  private final Map<QuarantineCause, Long> inputs = new HashMap<>();
  private long repaired;
  private long replayed;
  private long unreadableRecords;
  private long unreadableLedgerRecords;
  private boolean entriesAdded;
  private boolean rescan;

  /** An unhandled input: its first DLQ record read, and the earliest quarantine of its records. */
  private record Unhandled(
      Coordinates dlq, Coordinates original, Instant quarantinedAt, QuarantineCause cause) {

    Unhandled earliest(Unhandled other) {
      return other.quarantinedAt.isBefore(quarantinedAt)
          ? new Unhandled(dlq, original, other.quarantinedAt, cause)
          : this;
    }
  }

  /** Where inputs come from; the offsets seen of each are kept. */
  private record InputSource(InputIdentity.Stage stage, String connector, String topic, int part) {}

  DlqBacklog(String dlqTopic, String ledgerTopic) {
    this.dlqTopic = dlqTopic;
    this.ledger = Ledger.empty(ledgerTopic);
  }

  String dlqTopic() {
    return dlqTopic;
  }

  /** Applies one record of the ledger topic, read in offset order. */
  void ledgerRecord(ConsumerRecord<byte[], byte[]> record) {
    String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
    Optional<LedgerEntry> before = key == null ? Optional.empty() : ledger.entry(key);
    try {
      ledger.apply(record);
    } catch (IllegalStateException e) {
      unreadableLedgerRecords++;
      log.warn(
          "ledger record {}-{}@{} is not a ledger entry (no key, or a value that is not ledger"
              + " JSON v1); counted as unreadable and skipped",
          record.topic(),
          record.partition(),
          record.offset());
      return;
    }
    Optional<LedgerEntry> after = ledger.entry(key);
    if (before.isPresent()
        && (after.isEmpty() || !after.get().original().equals(before.get().original()))) {
      // What the old entry handled may be unhandled now, and handled records are not kept.
      rescan = true;
    }
    if (after.isPresent() && record.value() != null) {
      entriesAdded = true;
      if (after.get().action() == LedgerEntry.Action.REPAIR) {
        repaired++;
      } else {
        replayed++;
      }
    }
  }

  /**
   * Drops the unhandled records that ledger entries applied since the last call handle. Call it
   * after a batch of ledger records: records read before their entry are only dropped here.
   */
  void settleLedger() {
    if (entriesAdded) {
      unhandled.values().removeIf(u -> handled(u.dlq(), u.original()));
      entriesAdded = false;
    }
  }

  /**
   * True once when a ledger record took back an entry since the last call: the caller must call
   * {@link #restart()} and read the DLQ topic again from the beginning.
   */
  boolean takeRescan() {
    boolean needed = rescan;
    rescan = false;
    return needed;
  }

  /** Forgets the unhandled inputs before the DLQ topic is read again from its beginning. */
  void restart() {
    unhandled.clear();
  }

  /** Reads one record of the DLQ topic (records of a partition come in offset order). */
  void dlqRecord(ConsumerRecord<byte[], byte[]> record) {
    long counted = countedUpTo.getOrDefault(record.partition(), 0L);
    boolean firstRead = record.offset() >= counted;
    if (firstRead) {
      countedUpTo.put(record.partition(), record.offset() + 1);
    }
    DlqEntry entry = DlqRecords.entry(record);
    if (!entry.readable()) {
      if (firstRead) {
        // It names no input, so it counts as one of its own.
        records.merge(QuarantineCause.UNREADABLE, 1L, Long::sum);
        inputs.merge(QuarantineCause.UNREADABLE, 1L, Long::sum);
        unreadableRecords++;
        log.warn(
            "DLQ record {} is neither a DLQ envelope v1 nor a raw DLQ record; counted as"
                + " unreadable, not in the backlog",
            entry.dlq());
      }
      return;
    }
    QuarantineCause cause = QuarantineCause.of(entry);
    InputIdentity input = InputIdentity.of(entry);
    if (firstRead) {
      records.merge(cause, 1L, Long::sum);
      if (firstSeen(input)) {
        inputs.merge(cause, 1L, Long::sum);
      }
    }
    if (!handled(entry.dlq(), entry.original())) {
      unhandled.merge(
          input,
          new Unhandled(entry.dlq(), entry.original(), entry.envelope().quarantinedAt(), cause),
          Unhandled::earliest);
    }
  }

  private boolean firstSeen(InputIdentity input) {
    Coordinates at = input.original();
    return inputsSeen
        .computeIfAbsent(
            new InputSource(input.stage(), input.connector(), at.topic(), at.partition()),
            source -> new HashSet<>())
        .add(at.offset());
  }

  /** The numbers the meters show now. */
  DlqSnapshot snapshot() {
    Instant oldest = null;
    Map<QuarantineCause, Long> backlog = new HashMap<>();
    for (Unhandled record : unhandled.values()) {
      backlog.merge(record.cause(), 1L, Long::sum);
      if (oldest == null || record.quarantinedAt().isBefore(oldest)) {
        oldest = record.quarantinedAt();
      }
    }
    return new DlqSnapshot(
        records,
        inputs,
        backlog,
        oldest,
        repaired,
        replayed,
        unreadableRecords,
        unreadableLedgerRecords);
  }

  private boolean handled(Coordinates dlq, Coordinates original) {
    return ledger.find(dlq, original).isPresent();
  }
}
