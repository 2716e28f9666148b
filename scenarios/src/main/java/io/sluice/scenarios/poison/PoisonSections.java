package io.sluice.scenarios.poison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.sluice.scenarios.ReportSection;
import io.sluice.scenarios.step.Sections.InjectedRecord;
import io.sluice.scenarios.step.Sections.RepairProducerMetadata;
import io.sluice.scenarios.step.Sections.ScenarioKeys;
import io.sluice.tools.reconcile.ReconciliationReport;

/**
 * The report sections whose shape is the poison-dlq scenario's own: {@code scenario}, {@code fault}
 * and {@code recovery}; its {@code quarantine} is {@link
 * io.sluice.scenarios.step.Sections.QuarantineSection}.
 */
public final class PoisonSections {
  private PoisonSections() {}

  /** {@code scenario}: what the run was asked to do, and the rows it adds after the baseline. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ScenarioSection(
      @JsonUnwrapped ScenarioKeys run,
      long intendedOrderId,
      long postResumeOrderId,
      boolean repairSkipped)
      implements ReportSection {}

  /**
   * {@code fault}: the poison record, where it landed and capture's status meanwhile; of its
   * payload only the sha256 and size.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record FaultSection(String mechanism, @JsonUnwrapped InjectedRecord poison)
      implements ReportSection {
    public static final String MECHANISM =
        "non-Avro payload: the intended row as JSON {\"intended_after\": {...},"
            + " \"intended_operation\": \"c\"} produced to the main topic, keyed by the Avro"
            + " primary key (registered <topic>-key schema), while capture was paused";
  }

  /**
   * {@code recovery}: how the DLQ record was dealt with, the reconciliation while capture was still
   * paused, and capture's status once resumed.
   *
   * @param repairProducerMetadata null when the repair was skipped
   * @param reconciliationBeforeConnectorResume null when no reconciliation answered
   * @param connectorStatusAfterResume absent from the report until capture was resumed (as v1
   *     writes it)
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record RecoverySection(
      String mode,
      RepairProducerMetadata repairProducerMetadata,
      ReconciliationReport reconciliationBeforeConnectorResume,
      String captureStateAtReconciliation,
      @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode connectorStatusAfterResume)
      implements ReportSection {

    RecoverySection resumed(JsonNode connectorStatus) {
      return new RecoverySection(
          mode,
          repairProducerMetadata,
          reconciliationBeforeConnectorResume,
          captureStateAtReconciliation,
          connectorStatus);
    }
  }
}
