package io.sluice.bench.maintenance;

import static io.sluice.bench.maintenance.Results.PASSED;
import static io.sluice.bench.maintenance.Results.mode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MaintenanceBenchResultTest {
  private static final MaintenanceBenchResult RESULT =
      MaintenanceBenchResult.of(
          Results.SETTINGS,
          List.of(
              mode(Mode.OFF, 55_000, PASSED, 30, 10, 90, 10),
              mode(Mode.ON, 70_000, PASSED, 12, 10, 16, 10)),
          130.5);

  @TempDir Path dir;

  @Test
  void theJsonIsTheVersionOneFixture() throws IOException {
    assertThat(RESULT.toJson() + "\n").isEqualTo(fixture());
  }

  @Test
  void theFixtureReadsBackToTheSameResult() throws IOException {
    assertThat(MaintenanceBenchResult.fromJson(fixture())).isEqualTo(RESULT);
  }

  @Test
  void theTopLevelKeysComeInTheirOrderWithTheVersionFirst() throws IOException {
    JsonNode json = new ObjectMapper().readTree(RESULT.toJson());

    assertThat(fieldNames(json))
        .containsExactly(
            "result_version", "settings", "modes", "targets", "check_passed", "seconds");
    assertThat(json.path("result_version").asInt()).isEqualTo(MaintenanceBenchResult.VERSION);
    assertThat(json.path("targets").get(1).path("status").asText()).isEqualTo("missed");
    assertThat(json.path("modes").get(0).path("mode").asText()).isEqualTo("off");
  }

  @Test
  void aNotMeasuredTargetHasANullValue() {
    MaintenanceBenchResult offOnly =
        MaintenanceBenchResult.of(
            Results.SETTINGS, List.of(mode(Mode.OFF, 55_000, PASSED, 30, 10)), 70);

    assertThat(offOnly.toJson()).contains("\"value\" : null,\n    \"status\" : \"not_measured\"");
    assertThat(offOnly.missed()).isFalse();
    assertThat(MaintenanceBenchResult.fromJson(offOnly.toJson())).isEqualTo(offOnly);
  }

  @Test
  void writeCreatesTheDirectoryAndEndsTheFileWithANewline() throws IOException {
    Path file = dir.resolve("results").resolve("maintenance.json");

    RESULT.write(file);

    assertThat(Files.readString(file)).isEqualTo(RESULT.toJson() + "\n");
  }

  @Test
  void somethingElseIsNotReadAsAResult() {
    assertThatThrownBy(() -> MaintenanceBenchResult.fromJson("{\"report_version\": 1}"))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageStartingWith("not a maintenance benchmark result: ");
  }

  private static String fixture() throws IOException {
    try (InputStream in =
        MaintenanceBenchResultTest.class.getResourceAsStream("maintenance-result-v1.json")) {
      assertThat(in).as("fixture maintenance-result-v1.json").isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
