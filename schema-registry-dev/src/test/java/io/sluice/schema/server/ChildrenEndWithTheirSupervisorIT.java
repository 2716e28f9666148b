package io.sluice.schema.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.embedded.FreePort;
import io.sluice.embedded.process.ChildJvm;
import io.sluice.embedded.process.ReadyLine;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A supervisor (its stand-in) that is SIGKILLed runs no shutdown hook: the broker and registry it
 * started in child JVMs must notice and stop on their own, ports and all.
 */
class ChildrenEndWithTheirSupervisorIT {
  private static final Logger log = LoggerFactory.getLogger(ChildrenEndWithTheirSupervisorIT.class);
  private static final Duration GONE = Duration.ofSeconds(30);

  @TempDir Path tmp;

  private final List<Long> pids = new ArrayList<>();

  @AfterEach
  void nothingLeft() {
    pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
  }

  @Test
  void brokerAndRegistryStopWhenTheirSupervisorIsSigkilled() throws Exception {
    int brokerPort = FreePort.pick();
    int controllerPort = FreePort.pickOtherThan(List.of(brokerPort));
    int registryPort = FreePort.pickOtherThan(List.of(brokerPort, controllerPort));
    ChildJvm supervisor =
        ChildJvm.builder(
                "supervisor-stand-in",
                SupervisorStandIn.class.getName(),
                tmp.resolve("supervisor.log"))
            .heap("64m")
            .args(
                tmp.toString(),
                String.valueOf(brokerPort),
                String.valueOf(controllerPort),
                String.valueOf(registryPort))
            .start();
    pids.add(supervisor.pid());
    ReadyLine ready = supervisor.awaitReady(Duration.ofSeconds(120));
    long broker = Long.parseLong(ready.value("broker_pid"));
    long registry = Long.parseLong(ready.value("registry_pid"));
    pids.addAll(List.of(broker, registry));
    assertThat(ready.value("url")).isEqualTo("http://127.0.0.1:" + registryPort);
    assertThat(ProcessHandle.of(broker)).as("broker JVM").isPresent();
    assertThat(ProcessHandle.of(registry)).as("registry JVM").isPresent();

    long killed = System.nanoTime();
    supervisor.kill();

    await("broker and registry JVMs of the SIGKILLed supervisor gone")
        .atMost(GONE)
        .until(() -> ProcessHandle.of(broker).isEmpty() && ProcessHandle.of(registry).isEmpty());
    long goneMs = Duration.ofNanos(System.nanoTime() - killed).toMillis();
    log.info("broker and registry gone {} ms after the SIGKILL of their supervisor", goneMs);
    Files.readAllLines(tmp.resolve("supervisor.log")).stream()
        .filter(line -> line.contains(" ready in "))
        .forEach(line -> log.info("supervisor stand-in: {}", line));
    await("their ports free again")
        .atMost(Duration.ofSeconds(10))
        .until(() -> IntStream.of(brokerPort, controllerPort, registryPort).allMatch(p -> free(p)));
    assertThat(Files.readString(tmp.resolve("broker.log")))
        .as("broker log (children gone %d ms after the kill)", goneMs)
        .contains("sluice broker (pid " + broker + "): parent gone")
        .contains("Stopping the Kafka broker on 127.0.0.1:" + brokerPort + " (shutdown hook)");
    assertThat(Files.readString(tmp.resolve("registry.log")))
        .contains("sluice registry (pid " + registry + "): parent gone")
        .contains("Stopping the dev schema registry on http://127.0.0.1:" + registryPort);
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
