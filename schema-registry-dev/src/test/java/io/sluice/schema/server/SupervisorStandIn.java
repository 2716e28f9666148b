package io.sluice.schema.server;

import io.sluice.embedded.KafkaMain;
import io.sluice.embedded.process.ChildJvm;
import io.sluice.embedded.process.ReadyLine;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Run in a child JVM by {@link ChildrenEndWithTheirSupervisorIT}, standing in for the supervisor of
 * {@code sluice up --processes}: {@code <dir> <broker port> <controller port> <registry port>}
 * starts a broker and a registry in child JVMs of its own, prints {@code READY} with their pids and
 * waits to be killed.
 */
public final class SupervisorStandIn {
  private static final Duration READY = Duration.ofSeconds(60);

  private SupervisorStandIn() {}

  public static void main(String[] args) throws InterruptedException {
    Path dir = Path.of(args[0]);
    ChildJvm broker =
        ChildJvm.builder("broker", KafkaMain.class.getName(), dir.resolve("broker.log"))
            .heap("256m")
            .args(
                "--log-dir",
                dir.resolve("kafka").toString(),
                "--port",
                args[1],
                "--controller-port",
                args[2])
            .start();
    String bootstrap = broker.awaitReady(READY).value("bootstrap");
    ChildJvm registry =
        ChildJvm.builder("registry", RegistryMain.class.getName(), dir.resolve("registry.log"))
            .heap("128m")
            .args("--bootstrap-servers", bootstrap, "--port", args[3])
            .start();
    String url = registry.awaitReady(READY).value("url");
    Map<String, String> ready = new LinkedHashMap<>();
    ready.put("broker_pid", String.valueOf(broker.pid()));
    ready.put("registry_pid", String.valueOf(registry.pid()));
    ready.put("bootstrap", bootstrap);
    ready.put("url", url);
    System.out.println(ReadyLine.format(ready));
    System.out.flush();
    new CountDownLatch(1).await(); // until the test kills this JVM
  }
}
