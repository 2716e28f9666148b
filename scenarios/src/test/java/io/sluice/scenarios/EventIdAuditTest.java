package io.sluice.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class EventIdAuditTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void anAtLeastOnceDuplicateIsReportedButStaysConsistent() {
    EventIdAudit audit =
        EventIdAudit.of(Arrays.asList(1L, 2L, 3L, 3L), List.of(3L, 1L, 2L), List.of(1L, 2L, 3L));

    assertThat(audit.consistent()).isTrue();
    assertThat(audit.duplicates()).containsExactly(Map.entry(3L, 2L));
    assertThat(audit.duplicateOccurrenceCount()).isEqualTo(1);
    JsonNode report = JSON.valueToTree(audit.toReport());
    assertThat(fieldNames(report))
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
    assertThat(report.path("changelog_row_count").asLong()).isEqualTo(4);
    assertThat(report.path("changelog_distinct_event_id_count").asInt()).isEqualTo(3);
    assertThat(report.path("duplicate_event_ids").toString())
        .isEqualTo("[{\"event_id\":3,\"count\":2}]");
    assertThat(report.path("source_current_event_ids").toString()).isEqualTo("[1,2,3]");
    assertThat(report.path("current_event_ids_match").isBoolean()).isTrue();
    assertThat(report.path("current_event_ids_match").asBoolean()).isTrue();
    assertThat(report.path("consistent").asBoolean()).isTrue();
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
    assertThat(audit.toReport().currentEventIdsMatch()).isFalse();
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

    JsonNode source = JSON.valueToTree(audit.toReport()).path("source_current_event_ids");
    assertThat(fieldNames(source)).containsExactly("count", "sha256", "note");
    assertThat(source.path("count").asInt()).isEqualTo(EventIdAudit.LIST_LIMIT + 1);
    assertThat(source.path("sha256").asText()).isEqualTo(EventIdAudit.sha256(ids));
    assertThat(source.path("note").asText()).contains("sha256");
    // printf '1\n2\n' | sha256sum
    assertThat(EventIdAudit.sha256(List.of(1L, 2L)))
        .isEqualTo("a6e2b7a040683432de03a18fd8a1939a2fdf82585b364bfc874bdd4095c4cae1");
    assertThat(JSON.valueToTree(EventIdAudit.idList(List.of(5L, 6L))).toString())
        .isEqualTo("[5,6]");
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
