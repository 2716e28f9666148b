package io.sluice.scenarios.step;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.fault.FaultSections;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.SchemaVersion;
import io.sluice.scenarios.step.Sections.InjectedRecord;
import io.sluice.scenarios.step.Sections.ScenarioKeys;
import io.sluice.scenarios.step.Sections.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shared keys of the sink-poison and process-fault sections (the poison-dlq ones are checked
 * against the report fixture in VerifyReportTest): written in place, as the section's own keys.
 */
class SectionsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ScenarioKeys KEYS =
      ScenarioKeys.of(new RunSettings(7, 20, Duration.ofSeconds(1)), Topics.withRepairLedger());
  private static final InjectedRecord INJECTED =
      InjectedRecord.of(
          new ProducerMetadata("main", 0, 5, 1000),
          JSON.createObjectNode(),
          new byte[] {1},
          new byte[] {2, 3},
          4,
          new RunSettings(7, 20, Duration.ofSeconds(1)).rowAfterBaseline(1));

  @Test
  void sinkPoisonSectionsWriteTheSharedKeysInPlace() {
    JsonNode scenario =
        JSON.valueToTree(
            new SinkPoisonSections.ScenarioSection(KEYS, List.of("upsert"), "amount_cents", 1, 2));
    SchemaVersion version = new SchemaVersion("main-value", 1, 11, "long");
    JsonNode fault =
        JSON.valueToTree(
            new SinkPoisonSections.FaultSection(
                "m", "BACKWARD", "NONE", version, version, INJECTED, null, 11, 3));

    assertThat(fieldNames(scenario))
        .containsExactlyElementsOf(
            withSharedKeys(
                "sink_connectors", "retyped_field", "intended_order_id", "following_order_id"));
    assertThat(fieldNames(scenario.path("topics")))
        .containsExactly("main", "clean", "dlq", "repair_ledger");
    assertThat(fieldNames(fault))
        .containsExactly(
            "mechanism",
            "compatibility_before",
            "compatibility_set",
            "accepted_schema",
            "retyped_schema",
            "producer_metadata",
            "connector_status_during_injection",
            "payload_sha256",
            "payload_size_bytes",
            "key_sha256",
            "key_schema_id",
            "intended_order_id",
            "intended_event_id",
            "following_event_producer_metadata",
            "following_event_schema_id",
            "following_event_id");
    assertThat(fault.path("payload_size_bytes").asInt()).isEqualTo(2);
    assertThat(fault.path("intended_event_id").asLong()).isEqualTo(700000021L);
  }

  @Test
  void aProcessFaultClassWritesItsTopicsWithoutARepairLedger() {
    JsonNode scenario =
        JSON.valueToTree(
            new FaultSections.ScenarioSection(
                ScenarioKeys.of(
                    new RunSettings(7, 20, Duration.ofSeconds(1)), Topics.withoutRepairLedger()),
                "router",
                2,
                40,
                30,
                500,
                null));

    assertThat(fieldNames(scenario))
        .containsExactlyElementsOf(
            withSharedKeys(
                "component",
                "faults",
                "workload_rounds",
                "rows_per_round",
                "workload_round_pause_ms",
                "poison_every_rounds"));
    assertThat(fieldNames(scenario.path("topics"))).containsExactly("main", "clean", "dlq");
    assertThat(scenario.path("poison_every_rounds").isNull()).isTrue();
  }

  /** The keys every scenario's {@code scenario} section starts with, then {@code own}. */
  private static List<String> withSharedKeys(String... own) {
    List<String> keys =
        new ArrayList<>(
            List.of(
                "seed",
                "consumer_group",
                "topics",
                "baseline_events",
                "source_table",
                "iceberg_tables"));
    keys.addAll(List.of(own));
    return keys;
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
