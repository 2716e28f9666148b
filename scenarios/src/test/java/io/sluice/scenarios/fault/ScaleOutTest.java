package io.sluice.scenarios.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.scenarios.fault.ScaleOut.Placement;
import io.sluice.scenarios.fault.ScaleOut.Task;
import io.sluice.stack.control.ComponentStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScaleOutTest {
  @TempDir Path dir;

  private static final Task A = new Task("127.0.0.1:8083", "RUNNING");
  private static final Task B = new Task("127.0.0.1:8084", "RUNNING");

  @Test
  void twoRoutersAndTasksOnTwoWorkersAreScaledOutEvenWhenASinkSharesOneWorker() {
    Placement placement =
        new Placement(
            Map.of("sluice-router-1", List.of("t-0", "t-1"), "sluice-router-2", List.of("t-2")),
            Map.of("upsert", Map.of(0, A, 1, A, 2, A), "changelog", Map.of(0, B, 1, B, 2, B)));

    assertThat(placement.scaledOut()).isTrue();
  }

  @Test
  void oneRouterWithPartitionsOneWorkerOrATaskNotRunningIsNotScaledOut() {
    Map<String, List<String>> twoRouters =
        Map.of("sluice-router-1", List.of("t-0"), "sluice-router-2", List.of("t-1", "t-2"));
    Map<String, List<String>> oneRouting =
        Map.of("sluice-router-1", List.of("t-0", "t-1", "t-2"), "sluice-router-2", List.of());

    assertThat(new Placement(oneRouting, Map.of("s", Map.of(0, A, 1, B))).scaledOut()).isFalse();
    assertThat(new Placement(twoRouters, Map.of("s", Map.of(0, A, 1, A))).scaledOut()).isFalse();
    assertThat(
            new Placement(
                    twoRouters,
                    Map.of("s", Map.of(0, A, 1, new Task("127.0.0.1:8084", "UNASSIGNED"))))
                .scaledOut())
        .isFalse();
    assertThat(new Placement(twoRouters, Map.of("s", Map.of(0, A))).scaledOut())
        .as("one task")
        .isFalse();
  }

  @Test
  void theScanCountsOnlyWhatTheWorkersLoggedAfterTheirMarks() throws Exception {
    Path first = dir.resolve("connect.log");
    Path second = dir.resolve("connect-2.log");
    Files.writeString(first, "WARN commit to cdc_lab.orders_current fenced: old\n");
    Files.writeString(second, "");
    Path router = dir.resolve("router.log");
    Files.writeString(router, "fenced: not a worker\n");
    Map<Path, Long> marks =
        ScaleOut.logMarks(
            List.of(
                status("connect", first), status("connect-2", second), status("router", router)));
    Files.writeString(
        first,
        "WARN commit to cdc_lab.orders_current fenced: another writer\n"
            + "WARN Retrying task after failure: Cannot commit\n",
        StandardOpenOption.APPEND);
    Files.writeString(second, "WARN Commit failed, retrying in 100 ms: boom\n");

    ScaleOut.LogScan scan = ScaleOut.scan(marks);

    assertThat(marks).containsOnlyKeys(first, second);
    assertThat(scan).isEqualTo(new ScaleOut.LogScan(1, 1, 1));
  }

  @Test
  void anOffsetIsHeldAtOrPastTheLastRecord() {
    assertThat(new ScaleOut.HeldOffset(0, 10, 10L).held()).isTrue();
    assertThat(new ScaleOut.HeldOffset(0, 10, 11L).held()).as("past a commit marker").isTrue();
    assertThat(new ScaleOut.HeldOffset(0, 10, 9L).held()).isFalse();
    assertThat(new ScaleOut.HeldOffset(0, 10, null).held()).as("none recorded").isFalse();
  }

  private static ComponentStatus status(String name, Path log) {
    return new ComponentStatus(name, ComponentStatus.RUNNING, 1L, 1, null, log.toString());
  }
}
