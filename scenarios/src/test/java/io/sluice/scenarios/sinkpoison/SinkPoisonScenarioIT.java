package io.sluice.scenarios.sinkpoison;

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
 * {@code sluice verify --failure sink-poison} on its own throwaway embedded stack, judged by the
 * report file it wrote.
 */
class SinkPoisonScenarioIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int SEED = 9;
  private static final int BASELINE = 15;

  @TempDir Path reports;

  @Test
  void theRetypedEventIsQuarantinedTheLakeKeepsFlowingAndTheRepairedRowLands() throws IOException {
    Run run = verify("--seed", String.valueOf(SEED), "--baseline-rows", String.valueOf(BASELINE));

    JsonNode report = run.report();
    assertThat(fieldNames(report)).containsExactlyElementsOf(VerifyReport.KEYS);
    assertThat(report.path("failure_class").asText()).isEqualTo("sink-poison");
    for (SinkPoisonCheck check : SinkPoisonCheck.values()) {
      assertThat(report.path("checks").path(check.key()).asBoolean(false))
          .as("check %s (stdout:%n%s)", check.key(), run.out())
          .isTrue();
    }
    assertThat(fieldNames(report.path("checks")))
        .containsExactlyElementsOf(
            Stream.of(SinkPoisonCheck.values()).map(SinkPoisonCheck::key).toList());
    assertThat(run.exit()).as(run.out()).isZero();
    assertThat(report.path("phase").asText()).isEqualTo("complete");

    JsonNode summary = report.path("summary");
    assertThat(summary.path("passed").asBoolean()).isTrue();
    assertThat(summary.path("dlq_record_count").asLong()).isEqualTo(1);
    assertThat(summary.path("main_pipeline_continued").asBoolean()).isTrue();
    assertThat(summary.path("repair_replayed").asBoolean()).isTrue();
    assertThat(report.path("snapshot_diff_count").asLong()).isZero();
    assertThat(report.path("reconciliation").path("mysql_row_count").asLong())
        .isEqualTo(BASELINE + 2);
    assertThat(report.path("reconciliation").path("mysql_rows")).hasSize(BASELINE + 2);

    // The router's lineage stage quarantined it, naming the field and both types.
    JsonNode quarantine = report.path("quarantine");
    assertThat(quarantine.path("stage").asText()).isEqualTo("router");
    assertThat(quarantine.path("error_code").asText()).isEqualTo("SCHEMA_INCOMPATIBLE");
    assertThat(quarantine.path("error_metadata").path("error_message").asText())
        .contains("amount_cents", "long", "string");
    assertThat(quarantine.path("state").asText()).isEqualTo("repaired");
    for (JsonNode sink : quarantine.path("sinks")) {
      assertThat(sink.path("state").asText()).isEqualTo("RUNNING");
      assertThat(sink.path("task_states").toString()).doesNotContain("FAILED");
    }
    DlqEnvelope envelope =
        DlqEnvelope.fromJson(
            Base64.getDecoder()
                .decode(quarantine.path("dlq_kafka_record").path("value_base64").asText()));
    assertThat(Sha256.hex(envelope.originalValue()))
        .isEqualTo(report.path("fault").path("payload_sha256").asText());

    JsonNode fault = report.path("fault");
    assertThat(fault.path("compatibility_set").asText()).isEqualTo("NONE");
    assertThat(fault.path("accepted_schema").path("field_type").asText()).isEqualTo("long");
    assertThat(fault.path("retyped_schema").path("field_type").asText()).isEqualTo("string");
    assertThat(fault.path("following_event_schema_id").asInt())
        .isEqualTo(fault.path("accepted_schema").path("id").asInt());

    // The repair re-encoded the quarantined event with the reverted version, the latest, by the
    // DLQ record's own id (so its ledger entry is the DLQ record's).
    JsonNode recovery = report.path("recovery");
    JsonNode produced = recovery.path("repair_producer_metadata");
    assertThat(produced.path("strategy").asText()).isEqualTo("avro-reencode");
    assertThat(produced.path("command").asText())
        .contains("dlq repair " + envelopeOffset(quarantine) + " --partition")
        .doesNotContain("--from-file");
    assertThat(recovery.path("reverted_schema").path("field_type").asText()).isEqualTo("long");
    assertThat(recovery.path("reverted_schema").path("version").asInt())
        .isGreaterThan(fault.path("retyped_schema").path("version").asInt());
    assertThat(recovery.path("repair_producer_metadata").path("value_schema_id").asInt())
        .isEqualTo(recovery.path("reverted_schema").path("id").asInt());
    assertThat(recovery.path("sinks_at_end")).hasSize(2);

    // Both rows reach the changelog twice (injected or repaired, then capture), none is missing.
    JsonNode audit = report.path("event_id_audit");
    assertThat(audit.path("consistent").asBoolean()).isTrue();
    assertThat(audit.path("duplicate_event_ids").toString())
        .contains("{\"event_id\":" + OrdersWorkload.orderId(SEED, BASELINE + 1) + ",\"count\":2}")
        .contains("{\"event_id\":" + OrdersWorkload.orderId(SEED, BASELINE + 2) + ",\"count\":2}");
    assertThat(run.out()).contains("PASSED", "report: ");
  }

  private static long envelopeOffset(JsonNode quarantine) {
    return quarantine.path("dlq_kafka_record").path("offset").asLong(-1);
  }

  private record Run(int exit, String out, JsonNode report) {}

  private Run verify(String... extra) throws IOException {
    List<String> args =
        new ArrayList<>(List.of("--failure", "sink-poison", "--report-dir", reports.toString()));
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
