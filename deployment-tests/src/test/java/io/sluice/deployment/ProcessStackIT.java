package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.cli.SluiceCli;
import io.sluice.contract.ReadyFile;
import io.sluice.embedded.process.ChildJvm;
import io.sluice.embedded.process.ListeningSockets;
import io.sluice.stack.ProcessStack;
import io.sluice.stack.control.ComponentStatus;
import io.sluice.stack.control.StackControlClient;
import io.sluice.stack.control.StackController;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * {@code sluice up --processes} as a user runs it: the supervisor is a JVM of its own (started as
 * {@code scripts/sluice} starts it, with the plugin directory the CLI build lays out), every
 * component a process under it. A component is SIGKILLed and started through the control API while
 * rows flow; the lake converges. Then the whole stack crashes (every component SIGKILLed at once)
 * and starts again; the lake converges. Then the supervisor itself is SIGKILLed: every component
 * ends with it, and a new supervisor on the same data dir starts, with the lake still equal to the
 * source.
 */
class ProcessStackIT {
  private static final Logger log = LoggerFactory.getLogger(ProcessStackIT.class);
  private static final Duration READY = Duration.ofMinutes(3);
  private static final Duration CONVERGE = Duration.ofMinutes(2);
  private static final Duration CHILDREN_GONE = Duration.ofSeconds(60);
  private static final List<String> COMPONENTS =
      List.of(
          ProcessStack.BROKER,
          ProcessStack.REGISTRY,
          ProcessStack.MARIADB,
          ProcessStack.ROUTER,
          ProcessStack.CONNECT,
          ProcessStack.CAPTURE,
          ProcessStack.MONITOR);

  @TempDir Path dir;
  private final List<ChildJvm> supervisors = new ArrayList<>();

  @AfterEach
  void stopSupervisors() {
    supervisors.forEach(ChildJvm::stop);
  }

  @Test
  void componentsRestartOnRequestAndEndWithASigkilledSupervisor() throws Exception {
    Path ready = dir.resolve("ready.json");
    ChildJvm supervisor = supervisor(ready);
    JsonNode endpoints = awaitReadyFile(supervisor, ready);
    assertThat(componentNames(endpoints)).containsExactlyElementsOf(COMPONENTS);
    List<Long> pids = pids(endpoints);
    assertThat(pids).hasSize(COMPONENTS.size()).allMatch(ProcessStackIT::alive);
    assertEveryUrlOnLoopback(endpoints);
    assertThat(endpoints.path(ReadyFile.TOPICS).toString())
        .as("the suffixes of the router's config file")
        .isEqualTo(
            "{\"clean_suffix\":\".clean\",\"dlq_suffix\":\".dlq\",\"repairs_suffix\":\".repairs\"}");
    for (long pid : pids) {
      assertThat(ListeningSockets.of(pid))
          .as("sockets component pid %d listens on", pid)
          .isNotEmpty()
          .allMatch(ListeningSockets.Socket::loopback);
    }
    assertThat(ListeningSockets.of(supervisor.pid()))
        .as("sockets the supervisor listens on (its control API)")
        .isNotEmpty()
        .allMatch(ListeningSockets.Socket::loopback);
    StackControlClient control =
        new StackControlClient(endpoints.path(ReadyFile.CONTROL_URL).asText());

    assertThat(sluice("load", "--ready-file", ready.toString(), "--seed", "1", "--rows", "200"))
        .isZero();
    awaitConverged(ready);

    ComponentStatus killed = control.kill(ProcessStack.ROUTER);
    assertThat(killed.state()).isEqualTo(ComponentStatus.KILLED);
    assertThat(killed.exitCode()).as("exit code of a SIGKILLed JVM").isEqualTo(137);
    assertThat(alive(pids.get(COMPONENTS.indexOf(ProcessStack.ROUTER)))).isFalse();
    assertThat(sluice("load", "--ready-file", ready.toString(), "--seed", "2", "--rows", "100"))
        .isZero();
    ComponentStatus restarted = control.start(ProcessStack.ROUTER);
    assertThat(restarted.state()).isEqualTo(ComponentStatus.RUNNING);
    assertThat(restarted.starts()).isEqualTo(2);
    assertThat(restarted.pid()).isNotNull().isNotEqualTo(pids.get(3));
    assertThat(new ObjectMapper().readTree(ready.toFile()).at("/components/router/pid").asLong())
        .as("the ready file follows the restart")
        .isEqualTo(restarted.pid());
    awaitConverged(ready);

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> control.start(ProcessStack.ROUTER))
        .isInstanceOf(StackController.ControlException.class)
        .hasMessageContaining("router runs already");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> control.kill("zookeeper"))
        .isInstanceOf(StackController.ControlException.class)
        .hasMessageContaining("no component zookeeper");

    List<Long> beforeCrash = pids(new ObjectMapper().readTree(ready.toFile()));
    List<ComponentStatus> crashed = control.crash();
    assertThat(crashed).extracting(ComponentStatus::name).containsExactlyElementsOf(COMPONENTS);
    assertThat(crashed).as("every component after the crash").allMatch(ComponentStatus::running);
    for (int i = 0; i < COMPONENTS.size(); i++) {
      assertThat(crashed.get(i).pid())
          .as("pid of %s after the crash", COMPONENTS.get(i))
          .isNotNull()
          .isNotEqualTo(beforeCrash.get(i));
    }
    assertThat(beforeCrash).as("the pids before the crash").noneMatch(ProcessStackIT::alive);
    assertThat(pids(new ObjectMapper().readTree(ready.toFile())))
        .as("the ready file follows the crash")
        .containsExactlyElementsOf(crashed.stream().map(ComponentStatus::pid).toList());
    assertThat(sluice("load", "--ready-file", ready.toString(), "--seed", "4", "--rows", "100"))
        .isZero();
    awaitConverged(ready);

    List<Long> before = pids(new ObjectMapper().readTree(ready.toFile()));
    assertThat(supervisor.kill()).isEqualTo(137);
    await("every component of the SIGKILLed supervisor gone")
        .atMost(CHILDREN_GONE)
        .pollInterval(Duration.ofMillis(500))
        .until(() -> before.stream().noneMatch(ProcessStackIT::alive));

    Files.delete(ready);
    ChildJvm second = supervisor(ready);
    JsonNode again = awaitReadyFile(second, ready);
    assertThat(again.path(ReadyFile.BOOTSTRAP_SERVERS).asText())
        .as("the same ports after a restart on the same data dir")
        .isEqualTo(endpoints.path(ReadyFile.BOOTSTRAP_SERVERS).asText());
    assertThat(sluice("load", "--ready-file", ready.toString(), "--seed", "3", "--rows", "100"))
        .isZero();
    awaitConverged(ready);
  }

  private ChildJvm supervisor(Path ready) {
    ChildJvm.Builder builder =
        ChildJvm.builder("supervisor", SluiceCli.class.getName(), dir.resolve("supervisor.log"))
            .heap("384m")
            .stopGrace(Duration.ofSeconds(60))
            .args(
                "up",
                "--processes",
                "--data-dir",
                dir.resolve("data").toString(),
                "--ready-file",
                ready.toString());
    for (String property :
        List.of(
            "sluice.connect.plugins.dir",
            "sluice.connect.worker.classpath",
            "sluice.connect.launcher",
            "sluice.home")) {
      builder.jvmOption("-D" + property + "=" + System.getProperty(property));
    }
    ChildJvm supervisor = builder.start();
    supervisors.add(supervisor);
    return supervisor;
  }

  private static JsonNode awaitReadyFile(ChildJvm supervisor, Path ready) throws Exception {
    await("ready file of sluice up --processes (log " + supervisor.logFile() + ")")
        .atMost(READY)
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              assertThat(supervisor.isAlive())
                  .as("supervisor running; its log: %s", supervisor.logFile())
                  .isTrue();
              return Files.exists(ready);
            });
    return new ObjectMapper().readTree(ready.toFile());
  }

  private static void awaitConverged(Path ready) {
    await("every table of cdc_lab equal in the lake")
        .atMost(CONVERGE)
        .pollInterval(Duration.ofSeconds(2))
        .until(() -> sluice("reconcile", "--all", "--ready-file", ready.toString()) == 0);
  }

  /** Runs {@code sluice args...} in this JVM; its output is printed when it fails. */
  private static int sluice(String... args) {
    CommandLine cli = SluiceCli.commandLine();
    StringWriter out = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(out, true));
    int code = cli.execute(args);
    if (code != 0) {
      log.info("sluice {} exited with {}:\n{}", String.join(" ", args), code, out);
    }
    return code;
  }

  private static List<String> componentNames(JsonNode ready) {
    List<String> names = new ArrayList<>();
    ready.path(ReadyFile.COMPONENTS).fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static List<Long> pids(JsonNode ready) {
    List<Long> pids = new ArrayList<>();
    for (JsonNode c : ready.path(ReadyFile.COMPONENTS)) {
      if (c.hasNonNull("pid")) {
        pids.add(c.path("pid").asLong());
      }
    }
    return pids;
  }

  /** Every URL of the ready file names 127.0.0.1 (each component binds to loopback only). */
  private static void assertEveryUrlOnLoopback(JsonNode ready) {
    Iterator<Map.Entry<String, JsonNode>> fields = ready.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      String value = field.getValue().asText();
      if (field.getKey().endsWith("_url") && value.startsWith("http")) {
        assertThat(URI.create(value).getHost()).as(field.getKey()).isEqualTo("127.0.0.1");
      }
    }
    assertThat(ready.path(ReadyFile.BOOTSTRAP_SERVERS).asText()).startsWith("127.0.0.1:");
    assertThat(ready.path(ReadyFile.JDBC_URL).asText()).startsWith("jdbc:mariadb://127.0.0.1:");
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }
}
