package io.sluice.embedded.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.embedded.FreePort;
import io.sluice.embedded.KafkaMain;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker in a child JVM ({@link KafkaMain}) stopped, killed and restarted on the same log dir
 * and ports, as a supervisor will.
 */
class BrokerChildJvmIT {
  private static final Duration READY = Duration.ofSeconds(60);

  @TempDir Path tmp;

  private final List<ChildJvm> started = new ArrayList<>();

  @AfterEach
  void nothingLeft() {
    started.forEach(ChildJvm::kill);
  }

  @Test
  void stopRunsTheShutdownHookKillLeavesNoJvmAndARestartKeepsTopics() throws Exception {
    Path logDir = tmp.resolve("kafka");
    Path logFile = tmp.resolve("broker.log");
    int port = FreePort.pick();
    int controllerPort = FreePort.pickOtherThan(List.of(port));

    ChildJvm first = broker(logDir, logFile, port, controllerPort);
    assertThat(first.awaitReady(READY).value("bootstrap")).isEqualTo("127.0.0.1:" + port);
    createTopic(port, "kept");

    // 143 (128 + SIGTERM) or 0, a race in the JVM when main has returned; 137 would be a SIGKILL.
    assertThat(first.stop()).as("exit code after SIGTERM").isIn(0, 143);
    assertThat(Files.readString(logFile))
        .contains("Stopping the Kafka broker on 127.0.0.1:" + port + " (shutdown hook)")
        .contains("Kafka broker on 127.0.0.1:" + port + " stopped");
    awaitFree(port, controllerPort);

    ChildJvm second = broker(logDir, logFile, port, controllerPort);
    second.awaitReady(READY);
    assertThat(topics(port)).as("topics after a stop and restart").contains("kept");

    second.kill();
    assertThat(ProcessHandle.of(second.pid())).as("the killed broker JVM").isEmpty();
    awaitFree(port, controllerPort);

    ChildJvm third = broker(logDir, logFile, port, controllerPort);
    third.awaitReady(READY);
    assertThat(topics(port)).as("topics after a SIGKILL and restart").contains("kept");
  }

  private ChildJvm broker(Path logDir, Path logFile, int port, int controllerPort) {
    ChildJvm child =
        ChildJvm.builder("broker", KafkaMain.class.getName(), logFile)
            .heap("256m")
            .args(
                "--log-dir",
                logDir.toString(),
                "--port",
                String.valueOf(port),
                "--controller-port",
                String.valueOf(controllerPort))
            .start();
    started.add(child);
    return child;
  }

  private static void createTopic(int port, String topic) throws Exception {
    try (Admin admin = admin(port)) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
    }
  }

  private static Set<String> topics(int port) throws Exception {
    try (Admin admin = admin(port)) {
      return admin.listTopics().names().get();
    }
  }

  private static Admin admin(int port) {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            "127.0.0.1:" + port,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            30_000));
  }

  static void awaitFree(int... ports) {
    await("ports " + java.util.Arrays.toString(ports) + " free again")
        .atMost(Duration.ofSeconds(15))
        .until(() -> java.util.Arrays.stream(ports).allMatch(BrokerChildJvmIT::free));
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
