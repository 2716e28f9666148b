package io.sluice.router;

import io.sluice.router.config.RouterConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.config.ConfigException;

/**
 * Runs the router until SIGTERM/Ctrl-C: {@code RouterMain <router.properties>}. The keys are those
 * of {@link RouterConfig}; {@code streams.*} keys go to Kafka Streams.
 */
public final class RouterMain {
  private RouterMain() {}

  public static void main(String[] args) throws InterruptedException {
    if (args.length != 1 || args[0].equals("--help") || args[0].equals("-h")) {
      System.out.println("usage: RouterMain <router.properties>");
      System.out.println(
          "Validates CDC topics and routes records to <topic>.clean or <topic>.dlq.");
      System.out.println(
          "Keys: see docs/configuration.md, 'Router configuration'; streams.* keys are");
      System.out.println("passed to Kafka Streams. Stops on SIGTERM or Ctrl-C.");
      System.exit(args.length == 1 ? 0 : 2);
      return;
    }
    RouterConfig config;
    try {
      config = new RouterConfig(load(Path.of(args[0])));
    } catch (ConfigException e) {
      System.err.println("invalid router configuration in " + args[0] + ": " + e.getMessage());
      System.exit(2);
      return;
    }
    Router router = new Router(config);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  router.close();
                  stopped.countDown();
                },
                "sluice-router-shutdown"));
    router.start();
    System.out.println("router running; metrics at " + router.metricsUrl());
    stopped.await();
  }

  private static Properties load(Path file) {
    Properties props = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      props.load(reader);
    } catch (IOException e) {
      throw new ConfigException("cannot read " + file + ": " + e.getMessage());
    }
    return props;
  }
}
