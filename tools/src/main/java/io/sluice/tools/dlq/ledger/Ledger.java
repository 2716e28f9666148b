package io.sluice.tools.dlq.ledger;

import io.sluice.contract.TopicNames;
import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.kafka.TopicScanner;
import io.sluice.tools.dlq.record.DlqEntry;
import io.sluice.tools.dlq.record.QuarantinedInput;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The idempotency ledger of the DLQ tools: topic {@code <dlq>.repairs} (one partition, compacted),
 * one record per handled DLQ record, keyed {@code <dlq-topic>:<partition>:<offset>} (envelopes from
 * a file: {@code file:<original-topic>:<partition>:<offset>}). A record counts as handled when its
 * key is in the ledger or its original coordinates are, so a DLQ record repaired from a file export
 * is not repaired again from the DLQ. A tombstone removes an entry.
 *
 * <p>Every DLQ record of one input (its first and the later copies a zombie sink task wrote) has
 * the same original coordinates, so the entry written for one of them handles them all ({@link
 * #find(QuarantinedInput)}): a re-run skips every copy.
 */
public final class Ledger {
  private final String topic;
  private final Map<String, LedgerEntry> byKey = new HashMap<>();
  private final Map<Coordinates, LedgerEntry> byOriginal = new HashMap<>();
  private final Set<Coordinates> produced = new HashSet<>();

  private Ledger(String topic) {
    this.topic = topic;
  }

  /**
   * {@code <dlqTopic>.repairs}: the ledger with the default repairs suffix, for the lab and tests;
   * the commands take it from the {@link TopicNames} they run with.
   */
  public static String topicFor(String dlqTopic) {
    return TopicNames.DEFAULTS.repairsTopicOfDlq(dlqTopic);
  }

  /** An empty ledger (the topic does not exist yet). */
  public static Ledger empty(String topic) {
    return new Ledger(topic);
  }

  /**
   * Reads the whole ledger topic (empty when it does not exist).
   *
   * @throws IllegalStateException when a ledger record cannot be read: handling records without
   *     knowing what was done could produce them twice
   */
  public static Ledger read(TopicScanner scanner, String topic) {
    Ledger ledger = new Ledger(topic);
    scanner.readAll(topic, ledger::apply);
    return ledger;
  }

  public String topic() {
    return topic;
  }

  /** The key of {@code entry} in the ledger. */
  public static String keyOf(DlqEntry entry) {
    return entry.dlq() != null ? keyOf(entry.dlq()) : "file:" + coordinatesKey(entry.original());
  }

  /** The key of the DLQ record at {@code dlq} in the ledger. */
  public static String keyOf(Coordinates dlq) {
    return coordinatesKey(dlq);
  }

  /** What was done for {@code entry} (by its ledger key or its original coordinates). */
  public Optional<LedgerEntry> find(DlqEntry entry) {
    LedgerEntry found = byKey.get(keyOf(entry));
    if (found == null && entry.readable()) {
      found = byOriginal.get(entry.original());
    }
    return Optional.ofNullable(found);
  }

  /**
   * What was done for {@code input}: by the ledger key of any of its DLQ records (the first or a
   * later copy), else by its original coordinates.
   */
  public Optional<LedgerEntry> find(QuarantinedInput input) {
    for (DlqEntry record : input.records()) {
      LedgerEntry found = byKey.get(keyOf(record));
      if (found != null) {
        return Optional.of(found);
      }
    }
    return input.first().readable()
        ? Optional.ofNullable(byOriginal.get(input.first().original()))
        : Optional.empty();
  }

  /**
   * What was done for the DLQ record at {@code dlq} whose poison record was at {@code original}
   * (null when its envelope could not be read): by its ledger key or its original coordinates.
   */
  public Optional<LedgerEntry> find(Coordinates dlq, Coordinates original) {
    LedgerEntry found = byKey.get(keyOf(dlq));
    if (found == null && original != null) {
      found = byOriginal.get(original);
    }
    return Optional.ofNullable(found);
  }

  /** The entry under {@code key}, when the ledger holds one. */
  public Optional<LedgerEntry> entry(String key) {
    return Optional.ofNullable(byKey.get(key));
  }

  /** True when a record the ledger knows of was produced at {@code at}. */
  public boolean producedAt(Coordinates at) {
    return produced.contains(at);
  }

  /** Remembers an entry written in this run. */
  public void add(String key, LedgerEntry entry) {
    forget(byKey.put(key, entry));
    byOriginal.put(entry.original(), entry);
    produced.add(entry.produced());
  }

  /** The ledger record for {@code entry} under {@code key}. */
  public ProducerRecord<byte[], byte[]> record(String key, LedgerEntry entry) {
    return new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), entry.toJsonBytes());
  }

  /**
   * Applies one record of the ledger topic, read in offset order: an entry is added under its key,
   * a tombstone removes the key's entry.
   *
   * @throws IllegalStateException when the record has no key or its value is not a ledger entry;
   *     the message names the record's coordinates and key, never its value
   */
  public void apply(ConsumerRecord<byte[], byte[]> record) {
    if (record.key() == null) {
      throw new IllegalStateException(
          "ledger record " + at(record) + " has no key; delete it or fix the ledger topic");
    }
    String key = new String(record.key(), StandardCharsets.UTF_8);
    if (record.value() == null) {
      forget(byKey.remove(key));
      return;
    }
    try {
      add(key, LedgerEntry.fromJson(record.value()));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "ledger record "
              + at(record)
              + " (key "
              + key
              + ") cannot be read: "
              + e.getMessage()
              + "; the tools will not handle DLQ records without knowing what was done."
              + " Fix it, or write a tombstone for its key",
          e);
    }
  }

  private void forget(LedgerEntry entry) {
    if (entry != null) {
      byOriginal.remove(entry.original());
      produced.remove(entry.produced());
    }
  }

  private static String coordinatesKey(Coordinates at) {
    return at.topic() + ":" + at.partition() + ":" + at.offset();
  }

  private static String at(ConsumerRecord<byte[], byte[]> record) {
    return new Coordinates(record.topic(), record.partition(), record.offset()).toString();
  }
}
