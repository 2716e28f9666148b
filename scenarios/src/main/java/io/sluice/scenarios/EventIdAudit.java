package io.sluice.scenarios;

import io.sluice.dlq.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The event-id audit of a run: every change event carries the source row's {@code event_id}, so the
 * changelog table (every event) and the current table (the latest event per key) can be checked
 * against the source. Duplicates in the changelog are allowed (capture is at least once: a repaired
 * record and the same change re-emitted by capture share an event id); a source event id missing
 * from the changelog, or current-table event ids that differ from the source's, are not.
 *
 * @param changelogRowCount rows of the changelog table
 * @param changelogEventIds distinct event ids of the changelog, with how often each occurs
 * @param sourceCurrentEventIds event ids of the source table's rows, sorted
 * @param icebergCurrentEventIds event ids of the current table's rows, sorted
 */
public record EventIdAudit(
    long changelogRowCount,
    Map<Long, Long> changelogEventIds,
    List<Long> sourceCurrentEventIds,
    List<Long> icebergCurrentEventIds) {

  /** Above this many entries an id list is reported as its count and sha256 only. */
  public static final int LIST_LIMIT = 1000;

  public EventIdAudit {
    changelogEventIds = new TreeMap<>(changelogEventIds);
    sourceCurrentEventIds = sorted(sourceCurrentEventIds);
    icebergCurrentEventIds = sorted(icebergCurrentEventIds);
  }

  /**
   * The audit of a changelog's event ids (one per row; null for a row without one) against the
   * event ids of the source and current tables.
   */
  public static EventIdAudit of(
      Collection<Long> changelogEventIdPerRow,
      Collection<Long> sourceCurrentEventIds,
      Collection<Long> icebergCurrentEventIds) {
    Map<Long, Long> counts = new TreeMap<>();
    for (Long id : changelogEventIdPerRow) {
      if (id != null) {
        counts.merge(id, 1L, Long::sum);
      }
    }
    return new EventIdAudit(
        changelogEventIdPerRow.size(),
        counts,
        new ArrayList<>(sourceCurrentEventIds),
        new ArrayList<>(icebergCurrentEventIds));
  }

  /** Event ids that occur more than once in the changelog, with their counts. */
  public Map<Long, Long> duplicates() {
    Map<Long, Long> duplicates = new TreeMap<>();
    changelogEventIds.forEach(
        (id, count) -> {
          if (count > 1) {
            duplicates.put(id, count);
          }
        });
    return duplicates;
  }

  /** Occurrences beyond the first of every duplicated event id. */
  public long duplicateOccurrenceCount() {
    return duplicates().values().stream().mapToLong(count -> count - 1).sum();
  }

  /** Source event ids the changelog lacks: events that never reached the lake. */
  public List<Long> missingFromChangelog() {
    return sourceCurrentEventIds.stream().filter(id -> !changelogEventIds.containsKey(id)).toList();
  }

  public boolean currentEventIdsMatch() {
    return sourceCurrentEventIds.equals(icebergCurrentEventIds);
  }

  /** The current table holds the source's event ids and the changelog misses none of them. */
  public boolean consistent() {
    return currentEventIdsMatch() && missingFromChangelog().isEmpty();
  }

  /** The report's {@code event_id_audit} object. */
  public EventIdAuditReport toReport() {
    List<EventIdAuditReport.DuplicateEventId> duplicates = new ArrayList<>();
    duplicates()
        .forEach((id, count) -> duplicates.add(new EventIdAuditReport.DuplicateEventId(id, count)));
    return new EventIdAuditReport(
        changelogRowCount,
        changelogEventIds.size(),
        duplicates,
        duplicateOccurrenceCount(),
        idList(sourceCurrentEventIds),
        idList(icebergCurrentEventIds),
        currentEventIdsMatch(),
        idList(missingFromChangelog()),
        consistent());
  }

  /**
   * The ids themselves up to {@link #LIST_LIMIT}; beyond it their count and the sha256 of the
   * sorted ids, one decimal per line.
   */
  static EventIdAuditReport.IdList idList(List<Long> ids) {
    if (ids.size() <= LIST_LIMIT) {
      return new EventIdAuditReport.Ids(ids);
    }
    return new EventIdAuditReport.IdDigest(
        ids.size(),
        sha256(ids),
        "more than " + LIST_LIMIT + " ids: count and sha256 of the sorted ids, one per line");
  }

  static String sha256(List<Long> sortedIds) {
    MessageDigest digest = Sha256.digest();
    for (Long id : sortedIds) {
      digest.update((id + "\n").getBytes(StandardCharsets.US_ASCII));
    }
    return Sha256.hex(digest);
  }

  private static List<Long> sorted(List<Long> ids) {
    List<Long> copy = new ArrayList<>(ids);
    copy.sort(null);
    return List.copyOf(copy);
  }
}
