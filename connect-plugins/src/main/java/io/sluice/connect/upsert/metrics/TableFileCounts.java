package io.sluice.connect.upsert.metrics;

/**
 * What a table's current snapshot holds, as its maintenance last read it.
 *
 * @param equalityDeletedRows rows of the live equality delete files: deletes every read still
 *     applies, since no rewrite has applied them yet
 */
public record TableFileCounts(
    long dataFiles,
    long equalityDeleteFiles,
    long positionDeleteFiles,
    long equalityDeletedRows,
    long snapshots) {}
