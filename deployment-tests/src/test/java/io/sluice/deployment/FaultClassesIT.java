package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.scenarios.fault.FaultClass;
import io.sluice.stack.ProcessStack;
import io.sluice.stack.StackOptions;
import io.sluice.stack.control.ComponentStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code sluice verify} of the process fault classes on one process stack, as a user runs them
 * against {@code sluice up --processes --ready-file F}, scaled out as scale-out needs it (two
 * routers, two Connect workers, both sinks at {@code tasks.max=3}), so every class also runs on
 * more than one instance: router-crash (SIGKILLs of a router with poison mixed in: every input in
 * .clean or .dlq exactly once), sink-crash (SIGKILLs of the worker running the upsert sink's tasks
 * right after an Iceberg commit), registry-outage (the registry stopped while events of an unseen
 * schema id arrive; both routers' retries counted), delete-storm (deletes and re-inserts of the
 * same keys, no process fault), schema-change (a column added and dropped under load), scale-out,
 * and the reference run, poison-dlq, whose payload no log may hold. Each must pass every check of
 * its class and write a report with every top-level key of the reference report. One worker, as
 * compose runs it, is PluginPathConnectIT's and ProcessStackIT's.
 */
class FaultClassesIT {
  private static final Logger log = LoggerFactory.getLogger(FaultClassesIT.class);

  /** The system property that adds the classes the suite leaves out ({@code full}). */
  static final String FULL_MATRIX = "sluice.matrix";

  @TempDir static Path dir;
  private static ProcessStack stack;
  private static Path ready;

  @BeforeAll
  static void startStack() {
    ready = dir.resolve("ready.json");
    stack =
        new ProcessStack(
                StackOptions.in(dir.resolve("data"))
                    .withReadyFile(ready)
                    .withScale(FaultClass.SCALE_OUT_STACK))
            .start();
  }

  @AfterAll
  static void stopStack() {
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  void routerCrashKeepsEveryInputExactlyOnceAndTheLakeEqual() throws IOException {
    JsonNode report = verify("router-crash", 21);
    assertThat(report.at("/checks/every_input_in_clean_or_dlq_exactly_once").asBoolean()).isTrue();
    assertThat(report.at("/checks/each_poison_quarantined_once").asBoolean()).isTrue();
    assertThat(report.at("/fault/injections")).hasSize(2);
    for (JsonNode injection : report.at("/fault/injections")) {
      assertThat(injection.path("exit_code").asInt()).as("SIGKILL").isEqualTo(137);
      assertThat(injection.path("pid_after").asLong())
          .isNotEqualTo(injection.path("pid_before").asLong());
    }
    assertThat(report.at("/summary/dlq_record_count").asLong())
        .as("one DLQ record per poison record")
        .isEqualTo(report.at("/fault/poison_records").size())
        .isPositive();
  }

  @Test
  void sinkCrashBetweenTheTwoCommitsLosesAndDuplicatesNoKey() throws IOException {
    JsonNode report = verify("sink-crash", 22);
    assertThat(report.at("/checks/killed_between_iceberg_and_connect_commit").asBoolean()).isTrue();
    assertThat(report.at("/checks/no_duplicate_key").asBoolean()).isTrue();
    assertThat(report.at("/reconciliation/snapshot_diff_count").asLong()).isZero();
  }

  @Test
  void registryOutageQuarantinesNothingAndCountsTheRoutersRetries() throws IOException {
    // 10 s, not the default 30: the routers' retry backoff (100 ms, doubling) reaches its 5 s cap
    // after 6.3 s, so they retry at the cap here too, well inside their 60 s retry timeout.
    JsonNode report = verify("registry-outage", 26, "--faults", "1", "--outage", "10");
    assertThat(report.at("/checks/router_registry_retries_counted").asBoolean()).isTrue();
    assertThat(report.at("/checks/zero_records_quarantined").asBoolean()).isTrue();
    assertThat(report.at("/fault/injections/0/action").asText()).isEqualTo("stop");
    assertThat(report.at("/fault/injections/0/down_ms").asLong())
        .as("the registry down for the whole --outage")
        .isGreaterThanOrEqualTo(10_000);
    assertThat(report.at("/fault/injections/0/exit_code").isNull()).isFalse();
  }

  @Test
  void schemaChangeBringsTheNewColumnAndDropsNothing() throws IOException {
    JsonNode report = verify("schema-change", 25);
    assertThat(report.at("/checks/new_column_reached_iceberg_with_values").asBoolean()).isTrue();
    assertThat(report.at("/checks/earlier_rows_keep_null").asBoolean()).isTrue();
    assertThat(report.at("/fault/injections/0/action").asText()).startsWith("add column");
    assertThat(report.at("/fault/injections/1/action").asText()).startsWith("drop column");
  }

  @Test
  void deleteStormResurrectsNoRow() throws IOException {
    JsonNode report = verify("delete-storm", 23);
    assertThat(report.at("/checks/no_resurrected_row").asBoolean()).isTrue();
    assertThat(report.at("/checks").has("faults_injected")).as("no process fault").isFalse();
    assertThat(report.at("/fault/injections")).isEmpty();
  }

  @Test
  void aKilledWorkerOfTwoLosesAndDuplicatesNoKeyAndFencesNoCommit() throws IOException {
    List<String> names = stack.status().stream().map(ComponentStatus::name).toList();
    assertThat(names).contains("router", "router-2", "connect", "connect-2");

    JsonNode report = verify("scale-out", 31, "--faults", "1");

    assertThat(report.at("/checks/routers_and_sink_tasks_scaled_out").asBoolean()).isTrue();
    assertThat(report.at("/checks/every_task_offset_held_in_iceberg").asBoolean()).isTrue();
    assertThat(report.at("/checks/no_commit_fenced_by_mistake").asBoolean()).isTrue();
    assertThat(report.at("/checks/every_input_in_clean_or_dlq_exactly_once").asBoolean()).isTrue();
    JsonNode scaleOut = report.at("/fault/scale_out");
    assertThat(scaleOut.at("/before/routers").size()).as("router members").isEqualTo(2);
    for (String sink : List.of("sluice-upsert-sink", "sluice-changelog-sink")) {
      assertThat(scaleOut.at("/before/tasks/" + sink).size()).as(sink + " tasks").isEqualTo(3);
      assertThat(scaleOut.at("/after/tasks/" + sink).size()).as(sink + " tasks").isEqualTo(3);
    }
    assertThat(scaleOut.at("/commits/fenced_commits").asLong()).isZero();
    assertThat(scaleOut.at("/offsets_held_in_iceberg")).hasSize(3);
    Set<String> killed = new HashSet<>();
    for (JsonNode injection : report.at("/fault/injections")) {
      assertThat(injection.path("exit_code").asInt()).as("SIGKILL").isEqualTo(137);
      killed.add(injection.path("component").asText());
    }
    assertThat(killed).isSubsetOf("connect", "connect-2").isNotEmpty();
    assertThat(report.at("/summary/dlq_record_count").asLong())
        .as("one DLQ record per poison record")
        .isEqualTo(report.at("/fault/poison_records").size())
        .isPositive();
  }

  /**
   * The classes the suite leaves out for its time (minutes more on 2 cores): {@code mvn verify -pl
   * deployment-tests -am -Dsluice.matrix=full -Dit.test=FaultClassesIT -Dtest=none
   * -Dsurefire.failIfNoSpecifiedTests=false} runs them with the others.
   */
  @Test
  @EnabledIfSystemProperty(named = FULL_MATRIX, matches = "full")
  void captureRestartAbsorbsItsResentEvents() throws IOException {
    JsonNode report = verify("capture-restart", 27);
    assertThat(report.at("/checks/zero_records_quarantined").asBoolean()).isTrue();
    assertThat(report.at("/fault/injections/0/exit_code").asInt()).isEqualTo(137);
  }

  @Test
  @EnabledIfSystemProperty(named = FULL_MATRIX, matches = "full")
  void brokerRestartRestartsNoOtherComponent() throws IOException {
    JsonNode report = verify("broker-restart", 28);
    assertThat(report.at("/checks/clients_recovered_without_restart").asBoolean()).isTrue();
    assertThat(report.at("/fault/injections/0/component").asText()).isEqualTo("broker");
  }

  @Test
  @EnabledIfSystemProperty(named = FULL_MATRIX, matches = "full")
  void stackCrashConvergesAfterEveryProcessWasKilled() throws IOException {
    JsonNode report = verify("stack-crash", 29, "--faults", "1");
    assertThat(report.at("/fault/injections/0/action").asText()).isEqualTo("crash");
    assertThat(report.at("/fault/injections/0/recovered").asBoolean()).isTrue();
  }

  /**
   * The reference run on the process stack, and no log of any process, nor the run's own, holds the
   * poison's bytes: not as text, not base64-encoded, not hex-encoded (only the report carries them,
   * base64).
   */
  @Test
  void poisonDlqOnTheProcessStackLeavesThePayloadInNoLog() throws IOException {
    JsonNode report = verify("poison-dlq", 24);
    byte[] poison =
        Base64.getDecoder()
            .decode(report.at("/quarantine/error_metadata/original_value_base64").asText());
    assertThat(poison).isNotEmpty();
    String text = new String(poison, StandardCharsets.UTF_8);
    List<String> forms =
        List.of(
            text.substring(0, Math.min(40, text.length())),
            Base64.getEncoder().encodeToString(poison).substring(0, 40),
            HexFormat.of().formatHex(poison).substring(0, 40),
            HexFormat.of().withUpperCase().formatHex(poison).substring(0, 40));
    List<Path> logs = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      // Kafka's segments are .log files too, and hold the payload by design: not logs.
      Path kafkaData = dir.resolve("data").resolve("kafka");
      files
          .filter(p -> p.toString().endsWith(".log") && !p.startsWith(kafkaData))
          .forEach(logs::add);
    }
    assertThat(logs)
        .as("every component's log and the run's")
        .anyMatch(p -> p.getFileName().toString().equals("router.log"))
        .anyMatch(p -> p.getFileName().toString().equals("connect.log"))
        .anyMatch(p -> p.getFileName().toString().startsWith("poison-dlq-"));
    for (Path log : logs) {
      String content = Files.readString(log, StandardCharsets.ISO_8859_1);
      for (String form : forms) {
        assertThat(content).as("%s holds the poison's bytes", log).doesNotContain(form);
      }
    }
  }

  private static JsonNode verify(String failureClass, int seed, String... more) throws IOException {
    return VerifyRuns.passed(
        ready, dir.resolve("reports-" + failureClass), failureClass, seed, more);
  }
}
