package io.sluice.embedded.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Child JVMs without a real component: ready-line errors and the parent-pid check. */
class ChildJvmIT {
  @TempDir Path tmp;

  private final List<ProcessHandle> started = new ArrayList<>();

  @AfterEach
  void nothingLeft() {
    started.forEach(ProcessHandle::destroyForcibly);
  }

  @Test
  void readyTimeoutNamesTheChildAndQuotesTheEndOfItsLog() throws Exception {
    Path logFile = tmp.resolve("never-ready.log");
    Files.writeString(logFile, "READY from an earlier run, which does not count\n");
    ChildJvm child = track(ChildJvm.builder("never-ready", NeverReady.class.getName(), logFile));

    assertThatThrownBy(() -> child.awaitReady(Duration.ofSeconds(4)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("never-ready (pid " + child.pid() + ") printed no READY line")
        .hasMessageContaining("within 4 s")
        .hasMessageContaining("last lines of " + logFile)
        .hasMessageContaining("never-ready: step 2 hangs on purpose")
        .hasMessageNotContaining("earlier run");
    assertThat(child.isAlive()).as("a timeout leaves the child to its caller").isTrue();
    assertThat(child.kill()).isNotZero();
    assertThat(ProcessHandle.of(child.pid())).isEmpty();
  }

  @Test
  void aChildThatExitsBeforeItIsReadySaysSoWithItsExitCodeAtOnce() {
    ChildJvm child =
        track(
            ChildJvm.builder("exits-early", NeverReady.class.getName(), tmp.resolve("early.log"))
                .args("3"));
    long begin = System.nanoTime();

    assertThatThrownBy(() -> child.awaitReady(Duration.ofSeconds(60)))
        .hasMessageContaining("exits-early (pid " + child.pid() + ") exited with code 3")
        .hasMessageContaining("never-ready: loading step 1 of 2");
    assertThat(Duration.ofNanos(System.nanoTime() - begin))
        .as("no wait for the timeout")
        .isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void aChildWhoseMainThrowsExitsWithCodeOneThoughThreadsOfItStillRun() {
    ChildJvm child =
        track(
            ChildJvm.builder("throws", NeverReady.class.getName(), tmp.resolve("throws.log"))
                .args("throw"));

    assertThatThrownBy(() -> child.awaitReady(Duration.ofSeconds(60)))
        .hasMessageContaining("throws (pid " + child.pid() + ") exited with code 1")
        .hasMessageContaining(
            "java.lang.IllegalStateException: cannot bind 127.0.0.1:1 (on purpose)");
  }

  @Test
  void aChildEndsWhenItsParentPidIsGoneEvenWhileItsPipeStaysOpen() throws Exception {
    Process parent = new ProcessBuilder("sleep", "120").start();
    started.add(parent.toHandle());
    Path logFile = tmp.resolve("orphan.log");
    ChildJvm child =
        track(
            ChildJvm.builder("orphan", NeverReady.class.getName(), logFile)
                .parent(parent.toHandle()));
    await("child running")
        .atMost(Duration.ofSeconds(30))
        .until(() -> Files.readString(logFile).contains("step 2"));

    parent.destroyForcibly().waitFor();

    assertThat(child.awaitExit(Duration.ofSeconds(15)))
        .as("exit of the child whose parent pid is gone")
        .hasValue(0);
    assertThat(Files.readString(logFile))
        .contains(
            "sluice orphan (pid "
                + child.pid()
                + "): parent gone, pid "
                + parent.pid()
                + " no longer runs; exiting");
  }

  @Test
  void aChildThatOutlivesOthersEndsAfterThemWhenTheParentIsGone() throws Exception {
    Process parent = new ProcessBuilder("sleep", "120").start();
    started.add(parent.toHandle());
    String mark = "-Dsluice.test.stack=" + tmp;
    Path clientLog = tmp.resolve("client.log");
    Path brokerLog = tmp.resolve("broker.log");
    ChildJvm client =
        track(
            ChildJvm.builder("client", NeverReady.class.getName(), clientLog)
                .parent(parent.toHandle())
                .jvmOption(mark)
                .args("slow-stop", brokerLog.toString()));
    ChildJvm broker =
        track(
            ChildJvm.builder("broker", NeverReady.class.getName(), brokerLog)
                .parent(parent.toHandle())
                .outlives(mark));
    await("both children running")
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                Files.readString(clientLog).contains("step 2")
                    && Files.readString(brokerLog).contains("step 2"));
    CompletableFuture<Long> clientEnd = endOf(client);
    CompletableFuture<Long> brokerEnd = endOf(broker);

    parent.destroyForcibly().waitFor();

    assertThat(client.awaitExit(Duration.ofSeconds(30))).as("exit of the client").hasValue(0);
    assertThat(broker.awaitExit(Duration.ofSeconds(30))).as("exit of the broker").hasValue(0);
    assertThat(brokerEnd.get())
        .as("the broker ended after its client's shutdown, which waited for it")
        .isGreaterThan(clientEnd.get());
    assertThat(Files.readString(brokerLog))
        .contains(
            "sluice broker: first waiting for the 1 other process(es) of "
                + mark
                + " to end (at most 15 s)");
  }

  /** When the child's process ended, in {@link System#nanoTime()}. */
  private static CompletableFuture<Long> endOf(ChildJvm child) {
    return ProcessHandle.of(child.pid()).orElseThrow().onExit().thenApply(p -> System.nanoTime());
  }

  private ChildJvm track(ChildJvm.Builder builder) {
    ChildJvm child = builder.heap("32m").jvmOption("-XX:TieredStopAtLevel=1").start();
    started.add(ProcessHandle.of(child.pid()).orElseThrow());
    return child;
  }
}
