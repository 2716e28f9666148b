package io.sluice.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import io.sluice.scenarios.LinkageSnapshot.PartitionOffsets;
import io.sluice.scenarios.LinkageSnapshot.RouterCommit;
import io.sluice.scenarios.LinkageSnapshot.StageOffsets;
import io.sluice.scenarios.poison.PoisonCheck;
import io.sluice.scenarios.poison.PoisonSections.FaultSection;
import io.sluice.scenarios.poison.PoisonSections.RecoverySection;
import io.sluice.scenarios.poison.PoisonSections.ScenarioSection;
import io.sluice.scenarios.step.Sections.DlqKafkaRecord;
import io.sluice.scenarios.step.Sections.InjectedRecord;
import io.sluice.scenarios.step.Sections.QuarantineSection;
import io.sluice.scenarios.step.Sections.RepairProducerMetadata;
import io.sluice.scenarios.step.Sections.ScenarioKeys;
import io.sluice.scenarios.step.Sections.Topics;
import io.sluice.tools.reconcile.ReconcileResult;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
  void everySectionHasTheKeysAndJsonTypesOfTheDesign() throws IOException {
    JsonNode report = JSON.readTree(fixtureReport().toJson());

    assertKeysAndTypes(
        report,
        "",
        """
            report_version number
            run_id string
            started_at string
            finished_at string
            command string
            git_sha string
            phase string
            failure_class string
            scenario object
            environment object
            stack_versions object
            claim_boundary string
            path_b_job_class string
            reader object
            baseline_offset_checkpoint_snapshot_linkage object
            repair_offset_checkpoint_snapshot_linkage object
            offset_checkpoint_snapshot_linkage object
            fault object
            quarantine object
            recovery object
            reconciliation object
            snapshot_diff_count number
            event_id_audit object
            checks object
            summary object
            logs string
            evidence_dir null
            stack_logs null
            table_drift object
            """);
    assertKeysAndTypes(
        report.path("scenario"),
        "scenario",
        """
            seed number
            consumer_group string
            topics object
            baseline_events number
            source_table string
            iceberg_tables array
            intended_order_id number
            post_resume_order_id number
            repair_skipped boolean
            """);
    assertKeysAndTypes(
        report.path("scenario").path("topics"),
        "scenario.topics",
        """
            main string
            clean string
            dlq string
            repair_ledger string
            """);
    assertKeysAndTypes(
        report.path("environment"),
        "environment",
        """
            cpu object
            ram object
            os string
            kernel string
            java string
            load_average object
            """);
    assertKeysAndTypes(
        report.path("environment").path("cpu"),
        "environment.cpu",
        """
            logical_cpus number
            model string
            arch string
            """);
    assertKeysAndTypes(
        report.path("environment").path("ram"),
        "environment.ram",
        """
            total_bytes number
            free_bytes number
            jvm_max_heap_bytes number
            """);
    assertKeysAndTypes(
        report.path("environment").path("load_average"),
        "environment.load_average",
        """
            1m number
            5m number
            15m number
            """);
    assertKeysAndTypes(
        report.path("stack_versions"),
        "stack_versions",
        """
            kafka string
            kafka_streams string
            kafka_connect string
            debezium string
            iceberg string
            avro string
            mariadb string
            java string
            """);
    assertKeysAndTypes(
        report.path("reader"),
        "reader",
        """
            api string
            snapshot string
            deletes_applied boolean
            description string
            """);
    for (String key :
        List.of(
            "baseline_offset_checkpoint_snapshot_linkage",
            "repair_offset_checkpoint_snapshot_linkage",
            "offset_checkpoint_snapshot_linkage")) {
      JsonNode linkage = report.path(key);

      assertKeysAndTypes(
          linkage,
          "linkage",
          """
            captured_at string
            consumer_group string
            topic string
            kafka_offsets array
            stages object
            offsets_note string
            router_commit object
            iceberg_snapshot_ids object
            iceberg_snapshot_offsets object
            capture_position object
            """);
      assertKeysAndTypes(
          linkage.path("kafka_offsets").path(0),
          "linkage.kafka_offsets[0]",
          """
            partition number
            current_offset number
            log_end_offset number
            lag number
            """);
      assertKeysAndTypes(
          linkage.path("stages"),
          "linkage.stages",
          """
            router object
            upsert_sink object
            changelog_sink object
            """);
      assertKeysAndTypes(
          linkage.path("stages").path("router"),
          "linkage.stages.router",
          """
            consumer_group string
            topic string
            kafka_offsets array
            """);
      assertKeysAndTypes(
          linkage.path("router_commit"),
          "linkage.router_commit",
          """
            consumer_group string
            committed_offsets object
            commit_id number
            commit_id_definition string
            """);
    }
    assertKeysAndTypes(
        report.path("fault"),
        "fault",
        """
            mechanism string
            producer_metadata object
            connector_status_during_injection object
            payload_sha256 string
            payload_size_bytes number
            key_sha256 string
            key_schema_id number
            intended_order_id number
            intended_event_id number
            """);
    assertKeysAndTypes(
        report.path("fault").path("producer_metadata"),
        "fault.producer_metadata",
        """
            topic string
            partition number
            offset number
            timestamp_ms number
            """);
    assertKeysAndTypes(
        report.path("quarantine"),
        "quarantine",
        """
            dlq_kafka_record object
            error_metadata object
            state string
            router_health_after_poison string
            router_thread_replacements number
            """);
    assertKeysAndTypes(
        report.path("quarantine").path("dlq_kafka_record"),
        "quarantine.dlq_kafka_record",
        """
            topic string
            partition number
            offset number
            timestamp_ms number
            key_base64 string
            value_base64 string
            """);
    assertKeysAndTypes(
        report.path("recovery"),
        "recovery",
        """
            mode string
            repair_producer_metadata object
            reconciliation_before_connector_resume object
            capture_state_at_reconciliation string
            connector_status_after_resume object
            """);
    assertKeysAndTypes(
        report.path("recovery").path("repair_producer_metadata"),
        "recovery.repair_producer_metadata",
        """
            topic string
            partition number
            offset number
            timestamp_ms number
            value_schema_id number
            value_sha256 string
            strategy string
            ledger_topic string
            handled_at string
            command string
            """);
    assertKeysAndTypes(
        report.path("reconciliation"),
        "reconciliation",
        """
            mysql_rows array
            iceberg_rows array
            mysql_row_count number
            iceberg_row_count number
            mysql_rows_truncated boolean
            iceberg_rows_truncated boolean
            source_snapshot_row_count number
            iceberg_snapshot_row_count number
            source_snapshot_sha256 string
            iceberg_snapshot_sha256 string
            snapshot_diff object
            snapshot_diff_count number
            """);
    // One object per row, every column a string (null stays null), in primary-key order.
    assertKeysAndTypes(
        report.path("reconciliation").path("mysql_rows").path(0),
        "reconciliation.mysql_rows[0]",
        """
            order_id string
            status string
            updated_at string
            """);
    assertKeysAndTypes(
        report.path("reconciliation").path("iceberg_rows").path(1),
        "reconciliation.iceberg_rows[1]",
        """
            order_id string
            status null
            updated_at string
            """);
    assertThat(report.path("recovery").path("reconciliation_before_connector_resume"))
        .isEqualTo(report.path("reconciliation"));
    assertKeysAndTypes(
        report.path("reconciliation").path("snapshot_diff"),
        "reconciliation.snapshot_diff",
        """
            missing_from_actual array
            unexpected_in_actual array
            """);
    assertKeysAndTypes(
        report.path("event_id_audit"),
        "event_id_audit",
        """
            changelog_row_count number
            changelog_distinct_event_id_count number
            duplicate_event_ids array
            duplicate_occurrence_count number
            source_current_event_ids array
            iceberg_current_event_ids array
            current_event_ids_match boolean
            missing_from_changelog array
            consistent boolean
            """);
    assertKeysAndTypes(
        report.path("event_id_audit").path("duplicate_event_ids").path(0),
        "event_id_audit.duplicate_event_ids[0]",
        """
            event_id number
            count number
            """);
    assertKeysAndTypes(
        report.path("checks"),
        "checks",
        """
            poison_was_non_avro boolean
            exactly_one_dlq_record boolean
            dlq_has_error_metadata boolean
            dlq_preserved_original_value boolean
            main_job_survived_poison boolean
            checkpoint_advanced_after_poison boolean
            repair_replayed_with_registered_avro boolean
            repair_converged_before_connector_resume boolean
            connector_resumed boolean
            post_poison_event_flow_continued boolean
            final_snapshot_diff_zero boolean
            final_event_id_audit_consistent boolean
            final_every_table_equal boolean
            """);
    assertKeysAndTypes(
        report.path("summary"),
        "summary",
        """
            passed boolean
            dlq_record_count number
            main_pipeline_continued boolean
            repair_replayed boolean
            snapshot_diff_count number
            failed_phase null
            failure null
            """);
  }

  @Test
  void everyTopLevelKeyOfTheDesignIsWrittenInOrderEvenWhenUnset() throws IOException {
    Findings notRun =
        Findings.builder(PoisonCheck.class)
            .build(
                "stack", new StepChain.Failure("stack", "the stack did not start"), false, false);
    JsonNode written = JSON.readTree(new VerifyReport(header(), notRun, finished()).toJson());

    assertThat(fieldNames(written))
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
            "logs",
            "evidence_dir",
            "stack_logs",
            "table_drift")
        .containsExactlyElementsOf(VerifyReport.KEYS);
    assertThat(written.path("report_version").asInt()).isEqualTo(1);
    assertThat(written.path("phase").asText()).isEqualTo("stack");
    assertThat(written.path("scenario").isNull()).isTrue();
    assertThat(written.path("snapshot_diff_count").isNull()).isTrue();
    assertThat(fieldNames(written.path("checks")))
        .containsExactly(
            "poison_was_non_avro",
            "exactly_one_dlq_record",
            "dlq_has_error_metadata",
            "dlq_preserved_original_value",
            "main_job_survived_poison",
            "checkpoint_advanced_after_poison",
            "repair_replayed_with_registered_avro",
            "repair_converged_before_connector_resume",
            "connector_resumed",
            "post_poison_event_flow_continued",
            "final_snapshot_diff_zero",
            "final_event_id_audit_consistent",
            "final_every_table_equal");
    written.path("checks").forEach(check -> assertThat(check.isBoolean()).isTrue());
    written.path("checks").forEach(check -> assertThat(check.asBoolean()).isFalse());
    assertKeysAndTypes(
        written.path("summary"),
        "summary",
        """
            passed boolean
            dlq_record_count number
            main_pipeline_continued boolean
            repair_replayed boolean
            snapshot_diff_count null
            failed_phase string
            failure string
            """);
    assertThat(written.path("summary").path("passed").asBoolean()).isFalse();
    assertThat(written.path("summary").path("failure").asText())
        .isEqualTo("the stack did not start");
  }

  @Test
  void aFailedRunOnAThrowawayStackNamesTheKeptFolderAndItsLogs() throws IOException {
    RunHeader.StackFolder stack =
        new RunHeader.StackFolder(
            Path.of("/work/reports/stack-20260301T101500Z-abc123"),
            Path.of("/work/reports/stack-20260301T101500Z-abc123/data/logs"));
    Findings failed =
        Findings.builder(PoisonCheck.class)
            .build("baseline", new StepChain.Failure("baseline", "timed out"), false, false);

    JsonNode written = JSON.readTree(new VerifyReport(header(stack), failed, finished()).toJson());

    assertThat(written.path("logs").asText()).isEqualTo("reports/run.log");
    assertThat(written.path("evidence_dir").asText())
        .isEqualTo("/work/reports/stack-20260301T101500Z-abc123");
    assertThat(written.path("stack_logs").asText())
        .isEqualTo("/work/reports/stack-20260301T101500Z-abc123/data/logs");
  }

  @Test
  void aPassedRunOrOneOnAGivenStackNamesNoKeptFolder() throws IOException {
    RunHeader.StackFolder stack =
        new RunHeader.StackFolder(Path.of("/work/reports/stack-x"), Path.of("/work/reports/l"));
    Map<PoisonCheck, Boolean> all = new EnumMap<>(PoisonCheck.class);
    for (PoisonCheck check : PoisonCheck.values()) {
      all.put(check, true);
    }
    Findings passed =
        Findings.builder(PoisonCheck.class).proved(all).build("complete", null, true, true);
    Findings failed =
        Findings.builder(PoisonCheck.class)
            .build("final", new StepChain.Failure("final", "timed out"), false, false);

    JsonNode onThrowaway =
        JSON.readTree(new VerifyReport(header(stack), passed, finished()).toJson());
    JsonNode onGiven = JSON.readTree(new VerifyReport(header(null), failed, finished()).toJson());

    assertThat(onThrowaway.path("evidence_dir").isNull()).isTrue();
    assertThat(onThrowaway.path("stack_logs").isNull()).isTrue();
    assertThat(onGiven.path("evidence_dir").isNull()).isTrue();
    assertThat(onGiven.path("stack_logs").isNull()).isTrue();
  }

  @Test
  void passedOnlyWhenEveryCheckHoldsAndNoStepFailed() {
    Map<PoisonCheck, Boolean> all = new EnumMap<>(PoisonCheck.class);
    for (PoisonCheck check : PoisonCheck.values()) {
      all.put(check, true);
    }
    Findings.Builder<PoisonCheck> findings = Findings.builder(PoisonCheck.class).proved(all);
    assertThat(
            new VerifyReport(header(), findings.build("complete", null, true, true), finished())
                .passed())
        .isTrue();

    Findings failedStep =
        findings.build("final", new StepChain.Failure("final", "timed out"), true, true);
    assertThat(failedStep.summary().passed()).isFalse();
    assertThat(new VerifyReport(header(), failedStep, finished()).passed()).isFalse();

    Findings oneCheckFalse =
        findings
            .proved(Map.of(PoisonCheck.FINAL_SNAPSHOT_DIFF_ZERO, false))
            .build("complete", null, true, true);
    assertThat(oneCheckFalse.summary().passed()).isFalse();
    assertThat(new VerifyReport(header(), oneCheckFalse, finished()).passed()).isFalse();
  }

  @Test
  void aLaterStepsSectionReplacesAnEarlierOne() {
    QuarantineSection quarantined = quarantine("quarantined");
    Findings findings =
        Findings.builder(PoisonCheck.class)
            .quarantine(quarantined)
            .quarantine(quarantine("repaired"))
            .build("complete", null, false, false);

    assertThat(JSON.valueToTree(findings.quarantine()).path("state").asText())
        .isEqualTo("repaired");
  }

  @Test
  void theReconciliationObjectHasTheReportsShape() {
    ReconcileResult result =
        new ReconcileResult(
            List.of("order_id", "status"),
            List.of("order_id"),
            3,
            2,
            List.of(
                "{\"order_id\":\"1\",\"status\":\"NEW\"}", "{\"order_id\":\"2\",\"status\":null}"),
            List.of("{\"order_id\":\"1\",\"status\":\"NEW\"}"),
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
            "mysql_row_count",
            "iceberg_row_count",
            "mysql_rows_truncated",
            "iceberg_rows_truncated",
            "source_snapshot_row_count",
            "iceberg_snapshot_row_count",
            "source_snapshot_sha256",
            "iceberg_snapshot_sha256",
            "snapshot_diff",
            "snapshot_diff_count");
    // The rows as the reference report has them: objects, the counts beside them.
    assertThat(reconciliation.path("mysql_rows").toString())
        .isEqualTo(
            "[{\"order_id\":\"1\",\"status\":\"NEW\"},{\"order_id\":\"2\",\"status\":null}]");
    assertThat(reconciliation.path("iceberg_rows").toString())
        .isEqualTo("[{\"order_id\":\"1\",\"status\":\"NEW\"}]");
    assertThat(reconciliation.path("mysql_row_count").isIntegralNumber()).isTrue();
    assertThat(reconciliation.path("mysql_row_count").asLong()).isEqualTo(3);
    assertThat(reconciliation.path("iceberg_row_count").asLong()).isEqualTo(2);
    assertThat(reconciliation.path("mysql_rows_truncated").asBoolean()).isTrue();
    assertThat(reconciliation.path("iceberg_rows_truncated").asBoolean()).isTrue();
    assertThat(reconciliation.path("source_snapshot_row_count").asLong()).isEqualTo(3);
    JsonNode diff = reconciliation.path("snapshot_diff");
    assertThat(fieldNames(diff)).containsExactly("missing_from_actual", "unexpected_in_actual");
    assertThat(diff.path("missing_from_actual")).hasSize(1);
    assertThat(diff.path("missing_from_actual").path(0).asText())
        .isEqualTo("{\"order_id\":\"3\",\"status\":\"NEW\"}");
    assertThat(diff.path("unexpected_in_actual").isArray()).isTrue();
    assertThat(diff.path("unexpected_in_actual")).isEmpty();
    assertThat(reconciliation.path("snapshot_diff_count").asLong()).isEqualTo(1);
  }

  /** A report with fixed values in every section, as a passing run fills it (but one check). */
  static VerifyReport fixtureReport() {
    Map<PoisonCheck, Boolean> checks = new EnumMap<>(PoisonCheck.class);
    for (PoisonCheck check : PoisonCheck.values()) {
      checks.put(check, check != PoisonCheck.CONNECTOR_RESUMED);
    }
    // Both sides equal (the run converged); a null column stays JSON null.
    List<Map<String, String>> rows =
        List.of(
            row("700000001", "NEW", "2026-03-01 10:15:31.000"),
            row("700000002", null, "2026-03-01 10:15:32.000"));
    ReconciliationReport reconciliation =
        new ReconciliationReport(
            rows,
            rows,
            2,
            2,
            false,
            false,
            2,
            2,
            "ab",
            "ab",
            new ReconciliationReport.SnapshotDiff(List.of(), List.of()),
            0);
    Findings findings =
        Findings.builder(PoisonCheck.class)
            .scenario(
                new ScenarioSection(
                    new ScenarioKeys(
                        7,
                        "sluice-router",
                        new Topics("main", "main.clean", "main.dlq", "main.dlq.repairs"),
                        1,
                        "cdc_lab.orders",
                        List.of("cdc_lab.orders_current", "cdc_lab.orders_changelog")),
                    700000002,
                    700000003,
                    false))
            .stackVersions(
                new StackVersions(
                    "4.1.1", "4.1.1", "4.1.1", "3.5.0.Final", "1.12.0", "1.12.1", "11.4.5", "17"))
            .reader(Reader.ICEBERG_GENERICS)
            .baselineLinkage(linkage(1))
            .repairLinkage(linkage(2))
            .finalLinkage(linkage(3))
            .fault(
                new FaultSection(
                    FaultSection.MECHANISM,
                    new InjectedRecord(
                        new ProducerMetadata("main", 0, 1, 1000),
                        json("{\"connector\":{\"state\":\"PAUSED\"}}"),
                        "ff",
                        230,
                        "ee",
                        1,
                        700000002,
                        700000002)))
            .quarantine(quarantine("repaired"))
            .recovery(
                new RecoverySection(
                    "repair --strategy json-intended-row",
                    new RepairProducerMetadata(
                        "main",
                        0,
                        2,
                        2000L,
                        2,
                        "dd",
                        "json-intended-row",
                        "main.dlq.repairs",
                        "2026-03-01T10:16:00Z",
                        "sluice dlq repair 0 --partition 0"),
                    reconciliation,
                    "PAUSED",
                    json("{\"connector\":{\"state\":\"RUNNING\"}}")))
            .reconciliation(reconciliation)
            .eventIdAudit(
                EventIdAudit.of(
                        List.of(700000001L, 700000002L, 700000002L),
                        List.of(700000001L, 700000002L),
                        List.of(700000001L, 700000002L))
                    .toReport())
            .dlqRecordCount(1)
            .proved(checks)
            .build("complete", null, true, true);
    return new VerifyReport(header(), findings, finished());
  }

  private static Map<String, String> row(String orderId, String status, String updatedAt) {
    Map<String, String> row = new LinkedHashMap<>();
    row.put("order_id", orderId);
    row.put("status", status);
    row.put("updated_at", updatedAt);
    return row;
  }

  static RunHeader header() {
    return header(null);
  }

  /** The header of a run on {@code stack}: a throwaway stack's folder, or null for a given one. */
  static RunHeader header(RunHeader.StackFolder stack) {
    return new RunHeader(
        "poison-dlq-20260301T101530Z-seed7-abc123",
        Instant.parse("2026-03-01T10:15:30Z"),
        "sluice verify --failure poison-dlq --seed 7",
        "unknown",
        "poison-dlq",
        new Environment(
            new Environment.Cpu(2, "AMD EPYC", "amd64"),
            new Environment.Ram(8L, 4L, 2),
            "Linux (Debian GNU/Linux 12 (bookworm))",
            "6.1",
            "OpenJDK 17",
            new Environment.ProcLoadAverage(0.5, 0.25, 0.125)),
        "one run",
        Path.of("reports/run.log"),
        stack);
  }

  static Instant finished() {
    return Instant.parse("2026-03-01T10:16:30Z");
  }

  private static LinkageSnapshot linkage(long offset) {
    List<PartitionOffsets> router = List.of(new PartitionOffsets(0, offset, offset, 0));
    List<PartitionOffsets> sink = List.of(new PartitionOffsets(0, offset, offset + 1, 1));
    Map<String, StageOffsets> stages = new LinkedHashMap<>();
    stages.put("router", new StageOffsets("sluice-router", "main", router));
    stages.put("upsert_sink", new StageOffsets("connect-sluice-upsert-sink", "main.clean", sink));
    stages.put(
        "changelog_sink", new StageOffsets("connect-sluice-changelog-sink", "main.clean", sink));
    Map<String, Long> snapshotIds = new LinkedHashMap<>();
    snapshotIds.put("cdc_lab.orders_current", 10 + offset);
    snapshotIds.put("cdc_lab.orders_changelog", 20 + offset);
    Map<String, Map<String, JsonNode>> snapshotOffsets = new LinkedHashMap<>();
    snapshotOffsets.put(
        "cdc_lab.orders_current",
        Map.of("sluice.offsets.sluice-upsert-sink", json("{\"main.clean-0\":" + offset + "}")));
    snapshotOffsets.put("cdc_lab.orders_changelog", Map.of());
    return new LinkageSnapshot(
        "2026-03-01T10:16:0" + offset + "Z",
        "sluice-router",
        "main",
        router,
        stages,
        "log_end_offset is the last stable offset",
        new RouterCommit("sluice-router", Map.of("main-0", offset), offset, "sum"),
        snapshotIds,
        snapshotOffsets,
        json("{\"offsets\":[]}"));
  }

  private static QuarantineSection quarantine(String state) {
    return new QuarantineSection(
        new DlqKafkaRecord("main.dlq", 0, 0, 1000, "AAAA", "eyJ9"),
        json("{\"dlq_schema_version\":1,\"error_code\":\"NOT_AVRO_WIRE_FORMAT\"}"),
        state,
        "RUNNING",
        0);
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Asserts that {@code node} is an object with exactly the keys of {@code shape}, in its order,
   * and that each value has the JSON type named after its key: one "key type" per line.
   */
  private static void assertKeysAndTypes(JsonNode node, String path, String shape) {
    List<String> keys = new ArrayList<>();
    List<JsonNodeType> types = new ArrayList<>();
    shape
        .lines()
        .forEach(
            line -> {
              String[] keyAndType = line.strip().split(" ");
              keys.add(keyAndType[0]);
              types.add(JsonNodeType.valueOf(keyAndType[1].toUpperCase(Locale.ROOT)));
            });
    assertThat(node.isObject()).as("%s is an object", path).isTrue();
    assertThat(fieldNames(node)).as("keys of %s", path).containsExactlyElementsOf(keys);
    for (int i = 0; i < keys.size(); i++) {
      assertThat(node.get(keys.get(i)).getNodeType())
          .as("type of %s.%s", path, keys.get(i))
          .isEqualTo(types.get(i));
    }
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
