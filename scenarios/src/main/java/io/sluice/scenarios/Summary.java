package io.sluice.scenarios;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The report's {@code summary}. {@code passed} holds only when every check holds and no step
 * failed; the other figures are what the scenario saw ({@code main_pipeline_continued} and {@code
 * repair_replayed} as the scenario defines them from its checks).
 *
 * @param snapshotDiffCount the final reconciliation's, null when the run did not reach it
 * @param failedPhase the phase a step failed in, null when none did
 * @param failure why it failed
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Summary(
    boolean passed,
    long dlqRecordCount,
    boolean mainPipelineContinued,
    boolean repairReplayed,
    Long snapshotDiffCount,
    String failedPhase,
    String failure) {}
