package io.sluice.scenarios.poison;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.dlq.DlqEnvelope;
import io.sluice.dlq.Sha256;
import io.sluice.scenarios.VerifyReport;
import io.sluice.scenarios.cli.VerifyCommand;
import io.sluice.stack.db.OrdersWorkload;
import io.sluice.tools.cli.OperatorCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sluice verify --failure poison-dlq} on its own throwaway embedded stack, judged by the
 * report file it wrote.
 */
class PoisonDlqScenarioIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int SEED = 7;
  private static final int BASELINE = 20;

  @TempDir Path reports;

  @Test
  void thePoisonIsQuarantinedRepairedAndTheLakeEndsEqualToTheSource() throws IOException {
    Run run = verify("--seed", String.valueOf(SEED), "--baseline-rows", String.valueOf(BASELINE));

    JsonNode report = run.report();
    assertThat(fieldNames(report)).containsExactlyElementsOf(VerifyReport.KEYS);
    for (PoisonCheck check : PoisonCheck.values()) {
      assertThat(report.path("checks").path(check.key()).asBoolean(false))
          .as("check %s (stdout:%n%s)", check.key(), run.out())
          .isTrue();
    }
    assertThat(fieldNames(report.path("checks")))
        .containsExactlyElementsOf(Stream.of(PoisonCheck.values()).map(PoisonCheck::key).toList());
    assertThat(run.exit()).as(run.out()).isZero();
    assertThat(report.path("phase").asText()).isEqualTo("complete");

    JsonNode summary = report.path("summary");
    assertThat(summary.path("passed").asBoolean()).isTrue();
    assertThat(summary.path("dlq_record_count").asLong()).isEqualTo(1);
    assertThat(summary.path("main_pipeline_continued").asBoolean()).isTrue();
    assertThat(summary.path("repair_replayed").asBoolean()).isTrue();
    assertThat(summary.path("snapshot_diff_count").asLong()).isZero();

    JsonNode reconciliation = report.path("reconciliation");
    assertThat(reconciliation.path("mysql_row_count").asLong()).isEqualTo(BASELINE + 2);
    assertThat(reconciliation.path("iceberg_row_count").asLong()).isEqualTo(BASELINE + 2);
    // Under the default --report-rows every row is listed, one object per row in key order.
    JsonNode rows = reconciliation.path("mysql_rows");
    assertThat(rows).hasSize(BASELINE + 2);
    assertThat(reconciliation.path("mysql_rows_truncated").asBoolean()).isFalse();
    assertThat(reconciliation.path("iceberg_rows_truncated").asBoolean()).isFalse();
    assertThat(reconciliation.path("iceberg_rows")).isEqualTo(rows);
    List<Long> orderIds = new ArrayList<>();
    rows.forEach(row -> orderIds.add(Long.parseLong(row.path("order_id").asText())));
    assertThat(orderIds).isSorted().contains(intendedEventId());
    rows.forEach(row -> row.forEach(v -> assertThat(v.isTextual() || v.isNull()).isTrue()));
    assertThat(reconciliation.path("iceberg_snapshot_sha256").asText())
        .isEqualTo(reconciliation.path("source_snapshot_sha256").asText())
        .hasSize(64);
    assertThat(report.path("snapshot_diff_count").asLong()).isZero();

    // The DLQ record carries the injected bytes unchanged; the report has their sha256.
    JsonNode dlqRecord = report.path("quarantine").path("dlq_kafka_record");
    DlqEnvelope envelope =
        DlqEnvelope.fromJson(Base64.getDecoder().decode(dlqRecord.path("value_base64").asText()));
    assertThat(Sha256.hex(envelope.originalValue()))
        .isEqualTo(report.path("fault").path("payload_sha256").asText());
    assertThat(new String(envelope.originalValue(), StandardCharsets.UTF_8))
        .startsWith("{\"intended_after\":{\"order_id\":" + intendedEventId());
    assertThat(report.path("quarantine").path("error_metadata").path("error_code").asText())
        .isEqualTo("NOT_AVRO_WIRE_FORMAT");
    // Every envelope field, as the reference report has them: the payload base64 only.
    JsonNode metadata = report.path("quarantine").path("error_metadata");
    assertThat(metadata.path("original_value_base64").asText())
        .isEqualTo(Base64.getEncoder().encodeToString(envelope.originalValue()));
    assertThat(metadata.path("original_key_base64").asText())
        .isEqualTo(Base64.getEncoder().encodeToString(envelope.originalKey()));
    assertThat(metadata.has("payloads_redacted")).isFalse();
    assertThat(report.path("quarantine").path("state").asText()).isEqualTo("repaired");
    assertThat(report.path("fault").path("connector_status_during_injection").toString())
        .contains("\"state\":\"PAUSED\"");

    // The repaired record and capture's re-emitted change share the intended row's event id.
    JsonNode audit = report.path("event_id_audit");
    assertThat(audit.path("consistent").asBoolean()).isTrue();
    assertThat(audit.path("duplicate_event_ids").toString())
        .isEqualTo("[{\"event_id\":" + intendedEventId() + ",\"count\":2}]");
    assertThat(audit.path("changelog_row_count").asLong()).isEqualTo(BASELINE + 3);
    assertThat(audit.path("source_current_event_ids"))
        .isEqualTo(audit.path("iceberg_current_event_ids"))
        .hasSize(BASELINE + 2);

    for (String linkage :
        List.of(
            "baseline_offset_checkpoint_snapshot_linkage",
            "repair_offset_checkpoint_snapshot_linkage",
            "offset_checkpoint_snapshot_linkage")) {
      JsonNode l = report.path(linkage);
      assertThat(l.path("consumer_group").asText()).as(linkage).isEqualTo("sluice-router");
      assertThat(l.path("kafka_offsets")).as(linkage).hasSize(3);
      assertThat(fieldNames(l.path("stages")))
          .containsExactly("router", "upsert_sink", "changelog_sink");
      assertThat(l.path("iceberg_snapshot_ids").path("cdc_lab.orders_current").isNumber())
          .as(linkage)
          .isTrue();
      assertThat(l.path("router_commit").path("commit_id").isNumber()).isTrue();
    }
    long baselineCommit =
        report
            .path("baseline_offset_checkpoint_snapshot_linkage")
            .path("router_commit")
            .path("commit_id")
            .asLong();
    long finalCommit =
        report
            .path("offset_checkpoint_snapshot_linkage")
            .path("router_commit")
            .path("commit_id")
            .asLong();
    assertThat(finalCommit).isGreaterThan(baselineCommit);

    // Raw payloads stay out of the log.
    Path log = Path.of(report.path("logs").asText());
    assertThat(log).exists();
    assertThat(Files.readString(log)).doesNotContain("intended_after");
    assertThat(run.out())
        .contains("PASSED (13/13 checks)", "every table: cdc_lab.audit_log skipped", "report: ");
    // A passed run removes its throwaway stack and names no evidence.
    assertThat(report.path("evidence_dir").isNull()).isTrue();
    assertThat(report.path("table_drift").isEmpty()).isTrue();
    assertThat(stackFolders()).isEmpty();
  }

  @Test
  void withTheRepairSkippedTheReportShowsTheDiffAndTheRunFails() throws IOException {
    // Unrepaired, the lake cannot converge while capture is paused: the repair wait runs out
    // whatever its length, so a short one proves the same.
    Run run =
        verify(
            "--seed",
            "8",
            "--baseline-rows",
            "10",
            "--skip-repair",
            "--repair-wait",
            "5",
            "--redact-payloads",
            "--report-rows",
            "3");

    JsonNode report = run.report();
    assertThat(run.exit()).as(run.out()).isEqualTo(1);
    assertThat(report.path("checks").path("repair_converged_before_connector_resume").asBoolean())
        .isFalse();
    assertThat(report.path("checks").path("repair_replayed_with_registered_avro").asBoolean())
        .isFalse();
    assertThat(report.path("checks").path("exactly_one_dlq_record").asBoolean()).isTrue();
    JsonNode before = report.path("recovery").path("reconciliation_before_connector_resume");
    assertThat(before.path("snapshot_diff_count").asLong()).isEqualTo(1);
    assertThat(before.path("snapshot_diff").path("missing_from_actual").path(0).asText())
        .contains("\"order_id\":\"" + OrdersWorkload.orderId(8, 11) + "\"");
    // --report-rows 3: three rows per side, the counts of all of them, flagged truncated.
    assertThat(before.path("mysql_rows")).hasSize(3);
    assertThat(before.path("mysql_row_count").asLong()).isEqualTo(11);
    assertThat(before.path("mysql_rows_truncated").asBoolean()).isTrue();
    assertThat(before.path("iceberg_row_count").asLong()).isEqualTo(10);
    assertThat(report.path("summary").path("passed").asBoolean()).isFalse();
    assertThat(report.path("quarantine").path("state").asText()).isEqualTo("quarantined");
    assertThat(run.out()).contains("FAIL  repair_converged_before_connector_resume", "FAILED");

    // --redact-payloads: the poison's bytes appear nowhere in the report, not even base64.
    JsonNode quarantine = report.path("quarantine");
    assertThat(quarantine.path("error_metadata").path("payloads_redacted").asBoolean()).isTrue();
    assertThat(quarantine.path("error_metadata").has("original_value_base64")).isFalse();
    assertThat(quarantine.path("error_metadata").has("original_key_base64")).isFalse();
    assertThat(quarantine.path("dlq_kafka_record").path("key_base64").isNull()).isTrue();
    String redacted =
        new String(
            Base64.getDecoder()
                .decode(quarantine.path("dlq_kafka_record").path("value_base64").asText()),
            StandardCharsets.UTF_8);
    assertThat(redacted)
        .contains("\"payloads_redacted\":true")
        .doesNotContain("original_value_base64", "original_key_base64");
    assertThat(quarantine.path("error_metadata").path("error_code").asText())
        .isEqualTo("NOT_AVRO_WIRE_FORMAT");

    // The repair phase names the row the lake lacks, at most --report-rows of them.
    JsonNode drift = report.path("table_drift").path("repair").path(0);
    assertThat(drift.path("table").asText()).isEqualTo("cdc_lab.orders");
    assertThat(drift.path("snapshot_diff_count").asLong()).isEqualTo(1);
    assertThat(drift.path("missing_from_actual").path(0).asText())
        .contains("\"order_id\":\"" + OrdersWorkload.orderId(8, 11) + "\"");
    assertThat(drift.path("snapshot_diff_truncated").asBoolean()).isFalse();

    // A failed run keeps its throwaway stack where the report and stderr say: data dir and logs.
    Path kept = Path.of(report.path("evidence_dir").asText());
    assertThat(stackFolders()).containsExactly(kept);
    assertThat(kept.resolve("data").resolve("kafka")).isDirectory();
    Path logs = Path.of(report.path("stack_logs").asText());
    assertThat(logs).isEqualTo(kept.resolve("data").resolve("logs"));
    assertThat(logs.resolve("sluice-up.log"))
        .content()
        .contains("Starting the Sluice embedded stack", "Committed");
    assertThat(run.out())
        .contains("the throwaway stack's data dir and logs are kept in " + kept)
        .contains("stack:  " + kept + " (kept: data dir and logs)");
  }

  private List<Path> stackFolders() throws IOException {
    try (Stream<Path> list = Files.list(reports)) {
      return list.filter(p -> p.getFileName().toString().startsWith("stack-"))
          .map(Path::toAbsolutePath)
          .toList();
    }
  }

  private static long intendedEventId() {
    return OrdersWorkload.orderId(SEED, BASELINE + 1);
  }

  private record Run(int exit, String out, JsonNode report) {}

  private Run verify(String... extra) throws IOException {
    List<String> args =
        new ArrayList<>(List.of("--failure", "poison-dlq", "--report-dir", reports.toString()));
    args.addAll(List.of(extra));
    StringWriter out = new StringWriter();
    CommandLine cli = OperatorCli.configure(new CommandLine(new VerifyCommand()));
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(out, true));
    int exit = cli.execute(args.toArray(String[]::new));
    List<Path> files;
    try (Stream<Path> list = Files.list(reports)) {
      files = list.filter(p -> p.toString().endsWith(".json")).toList();
    }
    assertThat(files).as("one report file (stdout:%n%s)", out).hasSize(1);
    return new Run(exit, out.toString(), JSON.readTree(files.get(0).toFile()));
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
