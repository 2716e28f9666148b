package io.sluice.capture;

import io.sluice.capture.config.CaptureConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/** Runs the capture service from a properties file until SIGTERM/Ctrl-C. */
public final class CaptureMain {
  private CaptureMain() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length != 1 || args[0].equals("--help") || args[0].equals("-h")) {
      System.err.println(
          "usage: CaptureMain <capture.properties>\n"
              + "Keys (see docs/configuration.md, 'Capture configuration'): "
              + CaptureConfig.configDef().names()
              + " and debezium.* for connector options.");
      System.exit(args.length == 1 ? 0 : 2);
    }
    Properties props = new Properties();
    try (Reader reader = Files.newBufferedReader(Path.of(args[0]))) {
      props.load(reader);
    }
    CaptureService capture = new CaptureService(new CaptureConfig(props));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  capture.close();
                  stopped.countDown();
                },
                "capture-shutdown"));
    capture.start();
    System.out.println("capture admin API: " + capture.adminUrl());
    stopped.await();
  }
}
