package io.sluice.scenarios.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MatrixReportTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-01T16:00:05Z"), ZoneOffset.UTC);

  @TempDir Path dir;

  private final List<MatrixReport.Run> runs =
      List.of(
          new MatrixReport.Run("router-crash", true, 9, 9, 92.4, "/r/router-crash-1.json"),
          new MatrixReport.Run("sink-crash", false, 8, 9, 120.0, "/r/sink-crash-1.json"));

  @Test
  void writesOneRowPerClassWithItsVersionAndRunId() throws Exception {
    Path file = MatrixReport.of(runs, CLOCK).write(dir);

    assertThat(file).hasFileName("matrix-20261201T160005Z.json");
    JsonNode json = new ObjectMapper().readTree(file.toFile());
    List<String> keys = new ArrayList<>();
    json.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).containsExactly("matrix_version", "run_id", "passed", "runs");
    assertThat(json.path("matrix_version").asInt()).isEqualTo(MatrixReport.VERSION);
    assertThat(json.path("passed").asBoolean()).as("one class failed").isFalse();
    JsonNode first = json.path("runs").get(0);
    assertThat(first.path("failure_class").asText()).isEqualTo("router-crash");
    assertThat(first.path("passed").isBoolean()).isTrue();
    assertThat(first.path("checks_held").asLong()).isEqualTo(9);
    assertThat(first.path("checks").asInt()).isEqualTo(9);
    assertThat(first.path("seconds").asDouble()).isEqualTo(92.4);
    assertThat(first.path("report").asText()).isEqualTo("/r/router-crash-1.json");
  }

  @Test
  void printsATableAndTheVerdict() {
    StringWriter out = new StringWriter();
    MatrixReport.of(runs, CLOCK).print(new PrintWriter(out, true));

    assertThat(out.toString())
        .contains("router-crash     yes     9/9        92.4s  /r/router-crash-1.json")
        .contains("sink-crash       NO      8/9       120.0s  /r/sink-crash-1.json")
        .contains("FAILED: 1 of 2 classes passed");
  }
}
