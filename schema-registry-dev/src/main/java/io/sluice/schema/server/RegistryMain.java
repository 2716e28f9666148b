package io.sluice.schema.server;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dev schema registry as a process of its own (for a supervisor): {@code RegistryMain
 * --bootstrap-servers HOST:PORT [--host 127.0.0.1] [--port N]} starts a {@link DevSchemaRegistry}
 * on the broker, prints {@code READY url=http://HOST:PORT} to stdout and runs until SIGTERM, when a
 * shutdown hook stops it. A port of 0 (the default) picks a free one; a supervisor that restarts
 * the registry passes the same port again.
 */
public final class RegistryMain {
  private static final Logger log = LoggerFactory.getLogger(RegistryMain.class);

  private static final Set<String> FLAGS = Set.of("--bootstrap-servers", "--host", "--port");

  private RegistryMain() {}

  public static void main(String[] args) {
    Map<String, String> flags = flags(args);
    String bootstrap = flags.get("--bootstrap-servers");
    if (bootstrap == null) {
      throw new IllegalArgumentException("RegistryMain needs --bootstrap-servers HOST:PORT");
    }
    DevSchemaRegistry registry =
        DevSchemaRegistry.start(bootstrap, flags.getOrDefault("--host", "127.0.0.1"), port(flags));
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  log.info(
                      "Stopping the dev schema registry on {} (shutdown hook)", registry.url());
                  registry.close();
                },
                "registry-main-shutdown"));
    // The ready line a supervisor waits for (io.sluice.embedded.process.ReadyLine).
    System.out.println("READY url=" + registry.url());
    System.out.flush();
  }

  private static Map<String, String> flags(String[] args) {
    Map<String, String> flags = new HashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      if (!FLAGS.contains(args[i]) || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            "RegistryMain: unknown flag or missing value at '"
                + args[i]
                + "'; flags are --bootstrap-servers HOST:PORT, --host HOST, --port N");
      }
      flags.put(args[i], args[i + 1]);
    }
    return flags;
  }

  private static int port(Map<String, String> flags) {
    String value = flags.getOrDefault("--port", "0");
    try {
      int port = Integer.parseInt(value);
      if (port >= 0 && port <= 65_535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "RegistryMain: --port must be a port 0-65535 (0 = pick a free one), not '" + value + "'");
  }
}
