package io.sluice.scenarios.fault;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ReportSection;
import io.sluice.scenarios.step.Sections.ScenarioKeys;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.util.List;

/** The report sections of the process-fault classes, with the reference report's keys first. */
public final class FaultSections {
  private FaultSections() {}

  /** {@code scenario}: what the run was asked to do. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ScenarioSection(
      @JsonUnwrapped ScenarioKeys run,
      String component,
      int faults,
      int workloadRounds,
      long rowsPerRound,
      long workloadRoundPauseMs,
      Integer poisonEveryRounds)
      implements ReportSection {}

  /**
   * {@code fault}: how the component was faulted, each injection, and (router-crash) where the
   * first poison record landed, of its payload only the sha256.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record FaultSection(
      String mechanism,
      ProducerMetadata producerMetadata,
      JsonNode connectorStatusDuringInjection,
      String payloadSha256,
      String component,
      List<Injection> injections,
      List<ProducerMetadata> poisonRecords,
      @JsonInclude(JsonInclude.Include.NON_NULL) ScaleOutSection scaleOut)
      implements ReportSection {
    FaultSection withScaleOut(ScaleOutSection value) {
      return new FaultSection(
          mechanism,
          producerMetadata,
          connectorStatusDuringInjection,
          payloadSha256,
          component,
          injections,
          poisonRecords,
          value);
    }
  }

  /**
   * {@code fault.scale_out} (scale-out only): where the routers' partitions and the sinks' tasks
   * ran before the fault and at the end, what the workers logged about commits in between, and the
   * upsert sink's offset held in Iceberg for every partition of the clean topic.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ScaleOutSection(
      ScaleOut.Placement before,
      ScaleOut.Placement after,
      ScaleOut.LogScan commits,
      List<ScaleOut.HeldOffset> offsetsHeldInIceberg) {}

  /**
   * One injection.
   *
   * @param afterRound the workload round it followed
   * @param exitCode how the component ended (137 after a SIGKILL)
   * @param downMs from the end of the component to its start returning (it answers again)
   * @param icebergSnapshotId sink-crash: the upsert sink's snapshot the kill followed
   * @param betweenIcebergAndConnectCommit sink-crash: the snapshot held offsets of a partition
   *     beyond those Connect had committed to Kafka when the worker died
   * @param recovered the component (stack-crash: every component) runs again
   * @param component the component faulted (scale-out: the worker that ran the upsert sink's tasks
   *     then); null when no process was
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Injection(
      int number,
      String action,
      String at,
      int afterRound,
      Long pidBefore,
      Integer exitCode,
      Long pidAfter,
      long downMs,
      Long icebergSnapshotId,
      Boolean betweenIcebergAndConnectCommit,
      boolean recovered,
      String component) {}

  /**
   * {@code recovery}: how the stack recovered (the supervisor started the component; nothing was
   * replayed), the reconciliation once the workload ended and the lake caught up, and the capture's
   * status at the end.
   *
   * @param convergedAfterLastFaultMs from the end of the last fault (no fault: of the workload) to
   *     the current table equal to the source
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record RecoverySection(
      String mode,
      ProducerMetadata repairProducerMetadata,
      ReconciliationReport reconciliationBeforeConnectorResume,
      JsonNode connectorStatusAfterResume,
      long convergedAfterLastFaultMs)
      implements ReportSection {
    static final String MODE =
        "restart by the supervisor (sluice stack start); no repair, no replay: the pipeline"
            + " recovers from its own committed state";
  }
}
