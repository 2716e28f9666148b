package io.sluice.scenarios.sinkpoison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ReportSection;
import io.sluice.scenarios.RetypedSchemas;
import io.sluice.scenarios.step.Quarantine;
import io.sluice.scenarios.step.Sections.DlqKafkaRecord;
import io.sluice.scenarios.step.Sections.InjectedRecord;
import io.sluice.scenarios.step.Sections.RepairProducerMetadata;
import io.sluice.scenarios.step.Sections.ScenarioKeys;
import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.util.List;

/**
 * The report sections whose shape is the sink-poison scenario's own: {@code scenario}, {@code
 * fault}, {@code quarantine} and {@code recovery}. They keep the poison-dlq sections' keys where
 * they mean the same and add what a schema change needs (the schemas, the stage, the sinks).
 */
public final class SinkPoisonSections {
  private SinkPoisonSections() {}

  /** {@code scenario}: what the run was asked to do, and the rows it adds after the baseline. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ScenarioSection(
      @JsonUnwrapped ScenarioKeys run,
      List<String> sinkConnectors,
      String retypedField,
      long intendedOrderId,
      long followingOrderId)
      implements ReportSection {}

  /** A registered version of a subject, without its text. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record SchemaVersion(String subject, int version, int id, String fieldType) {
    static SchemaVersion of(RegisteredSchema registered, String field) {
      return new SchemaVersion(
          registered.subject(),
          registered.version(),
          registered.id(),
          RetypedSchemas.typeOf(registered.schema(), field));
    }
  }

  /**
   * {@code fault}: the schema change, the retyped event and the valid event after it; of the
   * payloads only the sha256 and size.
   *
   * @param compatibilityBefore the subject's compatibility level before the run set it to NONE
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record FaultSection(
      String mechanism,
      String compatibilityBefore,
      String compatibilitySet,
      SchemaVersion acceptedSchema,
      SchemaVersion retypedSchema,
      @JsonUnwrapped InjectedRecord retypedEvent,
      ProducerMetadata followingEventProducerMetadata,
      int followingEventSchemaId,
      long followingEventId)
      implements ReportSection {
    public static final String MECHANISM =
        "schema change: a version of <main>-value whose row field turns long -> string,"
            + " registered under NONE compatibility (as a DBA's column-type change or a second"
            + " producer would register it); one insert of the intended row encoded with it,"
            + " keyed by the Avro primary key, then a valid insert of the following row encoded"
            + " with the accepted version, both produced to the main topic while capture was"
            + " paused";
  }

  /**
   * {@code quarantine}: the DLQ record of the retyped event (as poison-dlq writes it), which stage
   * quarantined it, and what the sinks and the lake did meanwhile.
   *
   * @param stage "router" when the router's lineage stage quarantined it, "sink" when a sink did
   * @param sinks each sink connector's status once the following event was in the lake
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record QuarantineSection(
      DlqKafkaRecord dlqKafkaRecord,
      JsonNode errorMetadata,
      String state,
      String stage,
      String errorCode,
      String routerHealthAfterPoison,
      long routerThreadReplacements,
      List<SinkStatus> sinks,
      boolean followingEventInCurrent,
      boolean followingEventInChangelog)
      implements Quarantine.Section {

    @Override
    public QuarantineSection repaired() {
      return new QuarantineSection(
          dlqKafkaRecord,
          errorMetadata,
          "repaired",
          stage,
          errorCode,
          routerHealthAfterPoison,
          routerThreadReplacements,
          sinks,
          followingEventInCurrent,
          followingEventInChangelog);
    }
  }

  /**
   * {@code recovery}: the schema the DBA reverted to, the repair of the intended row, the
   * reconciliation while capture was still paused, capture's status once resumed and the sinks'
   * status at the end.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record RecoverySection(
      String mode,
      SchemaVersion revertedSchema,
      RepairProducerMetadata repairProducerMetadata,
      ReconciliationReport reconciliationBeforeConnectorResume,
      String captureStateAtReconciliation,
      @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode connectorStatusAfterResume,
      @JsonInclude(JsonInclude.Include.NON_NULL) List<SinkStatus> sinksAtEnd)
      implements ReportSection {

    RecoverySection resumed(JsonNode connectorStatus) {
      return new RecoverySection(
          mode,
          revertedSchema,
          repairProducerMetadata,
          reconciliationBeforeConnectorResume,
          captureStateAtReconciliation,
          connectorStatus,
          sinksAtEnd);
    }

    RecoverySection ended(List<SinkStatus> sinks) {
      return new RecoverySection(
          mode,
          revertedSchema,
          repairProducerMetadata,
          reconciliationBeforeConnectorResume,
          captureStateAtReconciliation,
          connectorStatusAfterResume,
          sinks);
    }
  }
}
