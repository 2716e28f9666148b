package io.sluice.tools.dlq.record;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The records of a DLQ topic grouped by the input they stand for ({@link InputIdentity}), so the
 * tools show and act on one record per input.
 *
 * <p>The first record of an input is the lowest offset when its copies share a partition, which
 * they do when the input has a key (the sink's producer partitions DLQ records by the original
 * key); copies in several partitions are ordered by {@code quarantined_at}, then partition. An
 * unreadable record names no input: it is an input of its own.
 */
public final class DlqInputs {
  private static final Comparator<DlqEntry> EARLIEST =
      Comparator.<DlqEntry, Instant>comparing(e -> e.envelope().quarantinedAt())
          .thenComparingInt(e -> e.dlq().partition())
          .thenComparingLong(e -> e.dlq().offset());

  private final List<QuarantinedInput> inputs;
  private final Map<DlqEntry, QuarantinedInput> byEntry = new IdentityHashMap<>();

  private DlqInputs(List<QuarantinedInput> inputs) {
    this.inputs = List.copyOf(inputs);
    for (QuarantinedInput input : inputs) {
      input.records().forEach(e -> byEntry.put(e, input));
    }
  }

  /** Groups {@code entries} (DLQ records in DLQ order) by input, in the order of their first. */
  public static DlqInputs of(List<DlqEntry> entries) {
    Map<InputIdentity, List<DlqEntry>> byIdentity = new HashMap<>();
    for (DlqEntry entry : entries) {
      if (entry.readable() && entry.dlq() != null) {
        byIdentity.computeIfAbsent(InputIdentity.of(entry), id -> new ArrayList<>()).add(entry);
      }
    }
    Map<DlqEntry, QuarantinedInput> byFirst = new IdentityHashMap<>();
    byIdentity.forEach(
        (identity, copies) -> {
          DlqEntry first = first(copies);
          List<DlqEntry> later = copies.stream().filter(copy -> copy != first).toList();
          byFirst.put(first, new QuarantinedInput(identity, first, later));
        });
    List<QuarantinedInput> inputs = new ArrayList<>();
    for (DlqEntry entry : entries) {
      if (!entry.readable() || entry.dlq() == null) {
        inputs.add(QuarantinedInput.single(entry));
      } else if (byFirst.containsKey(entry)) {
        inputs.add(byFirst.get(entry));
      }
    }
    return new DlqInputs(inputs);
  }

  /** One per input, in DLQ order of their first records. */
  public List<QuarantinedInput> inputs() {
    return inputs;
  }

  /** DLQ records that are a later copy of an input. */
  public int laterCopies() {
    return inputs.stream().mapToInt(i -> i.laterCopies().size()).sum();
  }

  /**
   * The input {@code entry} stands for; an entry these inputs were not grouped from (an envelope
   * from a file) is an input of its own.
   */
  public QuarantinedInput inputOf(DlqEntry entry) {
    QuarantinedInput input = byEntry.get(entry);
    return input != null ? input : QuarantinedInput.single(entry);
  }

  private static DlqEntry first(List<DlqEntry> copies) {
    // The lowest offset of each partition (the order the DLQ took them in), then the earliest.
    Map<Integer, DlqEntry> lowestPerPartition = new LinkedHashMap<>();
    for (DlqEntry copy : copies) {
      lowestPerPartition.merge(
          copy.dlq().partition(), copy, (a, b) -> a.dlq().offset() <= b.dlq().offset() ? a : b);
    }
    return lowestPerPartition.values().stream().min(EARLIEST).orElseThrow();
  }
}
