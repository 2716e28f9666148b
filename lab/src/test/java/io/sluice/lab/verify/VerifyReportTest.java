package io.sluice.lab.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.tools.reconcile.ReconcileResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerifyReportTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aFilledReportIsWrittenExactlyAsTheFixture(@TempDir Path dir) throws IOException {
    VerifyReport report = fixtureReport();
    Path file = dir.resolve("reports").resolve("run.json");

    report.write(file);

    assertThat(Files.readString(file)).isEqualToIgnoringNewLines(fixture());
  }

  @Test
  void everyTopLevelKeyOfTheDesignIsWrittenInOrderEvenWhenUnset() throws IOException {
    JsonNode written = JSON.readTree(new VerifyReport().toJson());

    List<String> keys = new ArrayList<>();
    written.fieldNames().forEachRemaining(keys::add);
    assertThat(keys)
        .containsExactly(
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
            "logs");
    assertThat(written.path("report_version").asInt()).isEqualTo(1);
    assertThat(written.path("run_id").isNull()).isTrue();
    written.path("checks").forEach(check -> assertThat(check.asBoolean(true)).isFalse());
    assertThat(written.path("checks")).hasSize(12);
  }

  @Test
  void passedOnlyWhenEveryCheckHolds() {
    VerifyReport report = new VerifyReport();
    VerifyReport.CHECKS.forEach(check -> report.check(check, true));
    assertThat(report.passed()).isTrue();

    report.check("final_snapshot_diff_zero", false);

    assertThat(report.passed()).isFalse();
  }

  @Test
  void unknownKeysAndChecksAreRefused() {
    VerifyReport report = new VerifyReport();

    assertThatThrownBy(() -> report.put("snapshot_diff_cnt", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the verification report has no settable key 'snapshot_diff_cnt'");
    assertThatThrownBy(() -> report.put("checks", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the verification report has no settable key 'checks'");
    assertThatThrownBy(() -> report.check("repair_done", true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unknown check 'repair_done'; known: [poison_was_non_avro,");
  }

  @Test
  void theReconciliationObjectHasTheReportsShape() {
    ReconcileResult result =
        new ReconcileResult(
            List.of("order_id", "status"),
            List.of("order_id"),
            3,
            2,
            "aa",
            "bb",
            List.of("{\"order_id\":\"3\",\"status\":\"NEW\"}"),
            List.of(),
            1);

    JsonNode reconciliation = JSON.valueToTree(ReconciliationReport.of(result));

    assertThat(fieldNames(reconciliation))
        .containsExactly(
            "mysql_rows",
            "iceberg_rows",
            "source_snapshot_row_count",
            "iceberg_snapshot_row_count",
            "source_snapshot_sha256",
            "iceberg_snapshot_sha256",
            "snapshot_diff",
            "snapshot_diff_count");
    assertThat(reconciliation.path("mysql_rows").isIntegralNumber()).isTrue();
    assertThat(reconciliation.path("mysql_rows").asLong()).isEqualTo(3);
    assertThat(reconciliation.path("iceberg_rows").asLong()).isEqualTo(2);
    JsonNode diff = reconciliation.path("snapshot_diff");
    assertThat(fieldNames(diff)).containsExactly("missing_from_actual", "unexpected_in_actual");
    assertThat(diff.path("missing_from_actual")).hasSize(1);
    assertThat(diff.path("missing_from_actual").path(0).asText())
        .isEqualTo("{\"order_id\":\"3\",\"status\":\"NEW\"}");
    assertThat(diff.path("unexpected_in_actual").isArray()).isTrue();
    assertThat(diff.path("unexpected_in_actual")).isEmpty();
    assertThat(reconciliation.path("snapshot_diff_count").asLong()).isEqualTo(1);
  }

  /** A report with one fixed value per section, as a run fills it. */
  static VerifyReport fixtureReport() {
    VerifyReport report = new VerifyReport();
    report.put("run_id", "poison-dlq-20260301T101530Z-seed7-abc123");
    report.put("started_at", "2026-03-01T10:15:30Z");
    report.put("finished_at", "2026-03-01T10:16:30Z");
    report.put("command", "sluice verify --failure poison-dlq --seed 7");
    report.put("git_sha", "unknown");
    report.put("phase", "complete");
    report.put("failure_class", "poison-dlq");
    report.put("scenario", ordered("seed", 7, "consumer_group", "sluice-router"));
    report.put("environment", ordered("cpu", 2, "java", "17"));
    report.put("stack_versions", ordered("kafka", "4.1.1", "iceberg", "1.12.0"));
    report.put("claim_boundary", "one run");
    report.put("path_b_job_class", "io.sluice.router.RouterMain");
    report.put("reader", ordered("deletes_applied", true));
    report.put("baseline_offset_checkpoint_snapshot_linkage", ordered("consumer_group", "g"));
    report.put("repair_offset_checkpoint_snapshot_linkage", ordered("consumer_group", "g"));
    report.put("offset_checkpoint_snapshot_linkage", ordered("consumer_group", "g"));
    report.put("fault", ordered("payload_sha256", "ff"));
    report.put("quarantine", ordered("state", "repaired"));
    report.put("recovery", ordered("mode", "repair"));
    report.put("reconciliation", ordered("snapshot_diff_count", 0));
    report.put("snapshot_diff_count", 0);
    report.put("event_id_audit", ordered("consistent", true));
    VerifyReport.CHECKS.forEach(check -> report.check(check, true));
    report.check("connector_resumed", false);
    report.put("summary", ordered("passed", false));
    report.put("logs", "reports/run.log");
    return report;
  }

  private static Map<String, Object> ordered(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  private static String fixture() throws IOException {
    try (InputStream in = VerifyReportTest.class.getResourceAsStream("report-v1.json")) {
      assertThat(in).as("fixture report-v1.json").isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
