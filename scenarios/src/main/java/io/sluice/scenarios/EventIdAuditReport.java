package io.sluice.scenarios;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/** The report's {@code event_id_audit} object: what {@link EventIdAudit} found. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record EventIdAuditReport(
    long changelogRowCount,
    int changelogDistinctEventIdCount,
    List<DuplicateEventId> duplicateEventIds,
    long duplicateOccurrenceCount,
    IdList sourceCurrentEventIds,
    IdList icebergCurrentEventIds,
    boolean currentEventIdsMatch,
    IdList missingFromChangelog,
    boolean consistent) {

  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record DuplicateEventId(long eventId, long count) {}

  /** A list of event ids: the ids themselves, or above a limit their count and sha256. */
  public sealed interface IdList permits Ids, IdDigest {}

  /** The ids, written as a bare JSON array. */
  public record Ids(@JsonValue List<Long> ids) implements IdList {}

  /** The count and the sha256 of the sorted ids, one decimal per line. */
  public record IdDigest(int count, String sha256, String note) implements IdList {}
}
