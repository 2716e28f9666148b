package io.sluice.lab.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class EventIdAuditTest {

  @Test
  void anAtLeastOnceDuplicateIsReportedButStaysConsistent() {
    EventIdAudit audit =
        EventIdAudit.of(Arrays.asList(1L, 2L, 3L, 3L), List.of(3L, 1L, 2L), List.of(1L, 2L, 3L));

    assertThat(audit.consistent()).isTrue();
    assertThat(audit.duplicates()).containsExactly(Map.entry(3L, 2L));
    assertThat(audit.duplicateOccurrenceCount()).isEqualTo(1);
    Map<String, Object> report = audit.toReport();
    assertThat(report.keySet())
        .containsExactly(
            "changelog_row_count",
            "changelog_distinct_event_id_count",
            "duplicate_event_ids",
            "duplicate_occurrence_count",
            "source_current_event_ids",
            "iceberg_current_event_ids",
            "current_event_ids_match",
            "missing_from_changelog",
            "consistent");
    assertThat(report)
        .containsEntry("changelog_row_count", 4L)
        .containsEntry("changelog_distinct_event_id_count", 3)
        .containsEntry("duplicate_event_ids", List.of(Map.of("event_id", 3L, "count", 2L)))
        .containsEntry("source_current_event_ids", List.of(1L, 2L, 3L))
        .containsEntry("current_event_ids_match", true)
        .containsEntry("consistent", true);
  }

  @Test
  void aSourceEventMissingFromTheChangelogIsInconsistent() {
    EventIdAudit audit = EventIdAudit.of(List.of(1L, 2L), List.of(1L, 2L, 3L), List.of(1L, 2L, 3L));

    assertThat(audit.currentEventIdsMatch()).isTrue();
    assertThat(audit.missingFromChangelog()).containsExactly(3L);
    assertThat(audit.consistent()).isFalse();
  }

  @Test
  void aCurrentTableBehindTheSourceIsInconsistent() {
    EventIdAudit audit = EventIdAudit.of(List.of(1L, 2L, 3L), List.of(1L, 2L, 3L), List.of(1L, 2L));

    assertThat(audit.currentEventIdsMatch()).isFalse();
    assertThat(audit.consistent()).isFalse();
    assertThat(audit.toReport()).containsEntry("current_event_ids_match", false);
  }

  @Test
  void changelogRowsWithoutAnEventIdCountAsRowsButNotAsIds() {
    List<Long> changelog = new ArrayList<>(List.of(1L));
    changelog.add(null);
    EventIdAudit audit = EventIdAudit.of(changelog, List.of(1L), List.of(1L));

    assertThat(audit.changelogRowCount()).isEqualTo(2);
    assertThat(audit.changelogEventIds()).containsOnlyKeys(1L);
    assertThat(audit.consistent()).isTrue();
  }

  @Test
  void longIdListsBecomeACountAndASha256() {
    List<Long> ids = LongStream.rangeClosed(1, EventIdAudit.LIST_LIMIT + 1).boxed().toList();
    EventIdAudit audit = EventIdAudit.of(ids, ids, ids);

    @SuppressWarnings("unchecked")
    Map<String, Object> source =
        (Map<String, Object>) audit.toReport().get("source_current_event_ids");
    assertThat(source)
        .containsEntry("count", EventIdAudit.LIST_LIMIT + 1)
        .containsEntry("sha256", EventIdAudit.sha256(ids));
    assertThat((String) source.get("note")).contains("sha256");
    // printf '1\n2\n' | sha256sum
    assertThat(EventIdAudit.sha256(List.of(1L, 2L)))
        .isEqualTo("a6e2b7a040683432de03a18fd8a1939a2fdf82585b364bfc874bdd4095c4cae1");
    assertThat(EventIdAudit.idList(List.of(5L, 6L))).isEqualTo(List.of(5L, 6L));
  }
}
