package io.sluice.embedded;

import io.sluice.embedded.process.ReadyLine;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker as a process of its own (for a supervisor, see {@code ChildJvm}): {@code KafkaMain
 * --log-dir DIR [--port N] [--controller-port N]} starts an {@link EmbeddedKafka} on the log dir,
 * prints {@code READY bootstrap=127.0.0.1:PORT} to stdout and runs until SIGTERM, when a shutdown
 * hook stops the broker. A port of 0 (the default) picks a free one; a supervisor that restarts the
 * broker passes the same ports again.
 */
public final class KafkaMain {
  private static final Logger log = LoggerFactory.getLogger(KafkaMain.class);

  private static final Set<String> FLAGS = Set.of("--log-dir", "--port", "--controller-port");

  private KafkaMain() {}

  public static void main(String[] args) {
    Map<String, String> flags = flags(args);
    if (!flags.containsKey("--log-dir")) {
      throw new IllegalArgumentException("KafkaMain needs --log-dir DIR");
    }
    Path logDir = Path.of(flags.get("--log-dir"));
    EmbeddedKafka kafka =
        EmbeddedKafka.start(logDir, port(flags, "--port"), port(flags, "--controller-port"));
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  log.info(
                      "Stopping the Kafka broker on {} (shutdown hook)", kafka.bootstrapServers());
                  kafka.close();
                },
                "kafka-main-shutdown"));
    System.out.println(ReadyLine.format(Map.of("bootstrap", kafka.bootstrapServers())));
    System.out.flush();
  }

  private static Map<String, String> flags(String[] args) {
    Map<String, String> flags = new HashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      if (!FLAGS.contains(args[i]) || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            "KafkaMain: unknown flag or missing value at '"
                + args[i]
                + "'; flags are --log-dir DIR, --port N, --controller-port N");
      }
      flags.put(args[i], args[i + 1]);
    }
    return flags;
  }

  private static int port(Map<String, String> flags, String flag) {
    String value = flags.getOrDefault(flag, "0");
    try {
      int port = Integer.parseInt(value);
      if (port >= 0 && port <= 65_535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "KafkaMain: "
            + flag
            + " must be a port 0-65535 (0 = pick a free one), not '"
            + value
            + "'");
  }
}
