package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.lab.stack.ProcessStack;
import io.sluice.lab.stack.StackOptions;
import io.sluice.lab.stack.control.ComponentStatus;
import io.sluice.lab.verify.fault.FaultClass;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice verify --failure scale-out} on a process stack of two routers and two Connect
 * workers with both sinks at {@code tasks.max=3}: the worker running the upsert sink's tasks
 * SIGKILLed mid-stream (once here: the suite's time; the command's default is twice) while rows and
 * poison stream in through both routers; no duplicate key, every partition's offset held in
 * Iceberg, no commit fenced, the lake equal to the source.
 */
class ScaleOutIT {
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
  void aKilledWorkerOfTwoLosesAndDuplicatesNoKeyAndFencesNoCommit() throws IOException {
    List<String> names = stack.status().stream().map(ComponentStatus::name).toList();
    assertThat(names).contains("router", "router-2", "connect", "connect-2");

    JsonNode report =
        VerifyRuns.passed(ready, dir.resolve("reports"), "scale-out", 31, "--faults", "1");

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
}
