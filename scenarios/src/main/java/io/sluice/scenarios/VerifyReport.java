package io.sluice.scenarios;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.sluice.router.RouterMain;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The verification report of {@code sluice verify} (version {@value #VERSION}): one JSON object
 * whose top-level keys are those of docs/design.md#verification-report, in that order, plus {@code
 * report_version} first and, after {@code logs}, {@code evidence_dir}, {@code stack_logs} and
 * {@code table_drift}. This class owns the layout: which key holds which part of the run's header
 * ({@link RunHeader}) or of what its scenario found ({@link Findings}); each section is a record
 * that owns its own keys. A section the run did not reach is written as null.
 */
@JsonAutoDetect(
    fieldVisibility = Visibility.NONE,
    getterVisibility = Visibility.NONE,
    isGetterVisibility = Visibility.NONE)
@JsonPropertyOrder({
  "report_version",
  "run_id",
  "started_at",
  "finished_at",
  "command",
  "git_sha",
  "phase",
  "failure_class",
  "scenario",
  "environment",
  "stack_versions",
  "claim_boundary",
  "path_b_job_class",
  "reader",
  "baseline_offset_checkpoint_snapshot_linkage",
  "repair_offset_checkpoint_snapshot_linkage",
  "offset_checkpoint_snapshot_linkage",
  "fault",
  "quarantine",
  "recovery",
  "reconciliation",
  "snapshot_diff_count",
  "event_id_audit",
  "checks",
  "summary",
  "logs",
  "evidence_dir",
  "stack_logs",
  "table_drift"
})
public final class VerifyReport {
  public static final int VERSION = 1;

  /** Every top-level key, in the order they are written. */
  public static final List<String> KEYS =
      List.of(VerifyReport.class.getAnnotation(JsonPropertyOrder.class).value());

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final RunHeader run;
  private final Findings findings;
  private final Instant finishedAt;

  public VerifyReport(RunHeader run, Findings findings, Instant finishedAt) {
    this.run = run;
    this.findings = findings;
    this.finishedAt = finishedAt;
  }

  public RunHeader run() {
    return run;
  }

  public Findings findings() {
    return findings;
  }

  /** True when every check holds and the summary says the run passed (no step failed). */
  public boolean passed() {
    return findings.checks().allHold() && findings.summary().passed();
  }

  /** The report as indented JSON. */
  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot render the verification report", e);
    }
  }

  /** Writes the report to {@code file} (its directory is created when missing). */
  public void write(Path file) {
    try {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Files.writeString(file, toJson() + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the verification report " + file, e);
    }
  }

  @JsonProperty("report_version")
  private int reportVersion() {
    return VERSION;
  }

  @JsonProperty("run_id")
  private String runId() {
    return run.runId();
  }

  @JsonProperty("started_at")
  private String startedAt() {
    return run.startedAt().toString();
  }

  @JsonProperty("finished_at")
  private String finishedAt() {
    return finishedAt.toString();
  }

  @JsonProperty("command")
  private String command() {
    return run.command();
  }

  @JsonProperty("git_sha")
  private String gitSha() {
    return run.gitSha();
  }

  @JsonProperty("phase")
  private String phase() {
    return findings.phase();
  }

  @JsonProperty("failure_class")
  private String failureClass() {
    return run.failureClass();
  }

  @JsonProperty("scenario")
  private ReportSection scenario() {
    return findings.scenario();
  }

  @JsonProperty("environment")
  private Environment environment() {
    return run.environment();
  }

  @JsonProperty("stack_versions")
  private StackVersions stackVersions() {
    return findings.stackVersions();
  }

  @JsonProperty("claim_boundary")
  private String claimBoundary() {
    return run.claimBoundary();
  }

  /** The router's main class (the reference report's path B was a Flink job). */
  @JsonProperty("path_b_job_class")
  private String pathBJobClass() {
    return RouterMain.class.getName();
  }

  @JsonProperty("reader")
  private Reader reader() {
    return findings.reader();
  }

  @JsonProperty("baseline_offset_checkpoint_snapshot_linkage")
  private LinkageSnapshot baselineLinkage() {
    return findings.baselineLinkage();
  }

  @JsonProperty("repair_offset_checkpoint_snapshot_linkage")
  private LinkageSnapshot repairLinkage() {
    return findings.repairLinkage();
  }

  @JsonProperty("offset_checkpoint_snapshot_linkage")
  private LinkageSnapshot finalLinkage() {
    return findings.finalLinkage();
  }

  @JsonProperty("fault")
  private ReportSection fault() {
    return findings.fault();
  }

  @JsonProperty("quarantine")
  private ReportSection quarantine() {
    return findings.quarantine();
  }

  @JsonProperty("recovery")
  private ReportSection recovery() {
    return findings.recovery();
  }

  @JsonProperty("reconciliation")
  private ReconciliationReport reconciliation() {
    return findings.reconciliation();
  }

  @JsonProperty("snapshot_diff_count")
  private Long snapshotDiffCount() {
    return findings.snapshotDiffCount();
  }

  @JsonProperty("event_id_audit")
  private EventIdAuditReport eventIdAudit() {
    return findings.eventIdAudit();
  }

  @JsonProperty("checks")
  private Checks<?> checks() {
    return findings.checks();
  }

  @JsonProperty("summary")
  private Summary summary() {
    return findings.summary();
  }

  @JsonProperty("logs")
  private String logs() {
    return run.logs().toString();
  }

  /**
   * The throwaway stack's folder, kept because the run failed (its data dir and its components'
   * logs); null when the run passed (the folder is removed unless another run on the same stack
   * failed) or ran on a stack that was given.
   */
  @JsonProperty("evidence_dir")
  private String evidenceDir() {
    return kept() ? run.stack().dir().toString() : null;
  }

  /** The kept stack's log folder (one log per component); null when no stack is kept. */
  @JsonProperty("stack_logs")
  private String stackLogs() {
    return kept() ? run.stack().logs().toString() : null;
  }

  /** By phase, the tables that did not equal the source there, with their differing rows. */
  @JsonProperty("table_drift")
  private Map<String, List<TableDrift>> tableDrift() {
    return findings.tableDrift();
  }

  private boolean kept() {
    return run.stack() != null && !passed();
  }
}
