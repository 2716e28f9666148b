package io.sluice.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * Prometheus in the {@link ProcessStack}: a {@link PrometheusServer} (its own process already, with
 * its files under {@code home}) scraping what {@link EmbeddedStack#prometheusConfig} names. A start
 * returns once it answers {@code /-/ready}; the stack waits for its targets separately, since a
 * lone restart must not wait for a component that is down on purpose.
 */
final class PrometheusComponent implements Supervised {
  private final Path binary;
  private final Path home;
  private final int port;
  private final PrometheusConfig config;
  private volatile PrometheusServer server;
  private volatile Integer exitCode;

  PrometheusComponent(Path binary, Path home, int port, PrometheusConfig config) {
    this.binary = binary;
    this.home = home;
    this.port = port;
    this.config = config;
  }

  @Override
  public void start(Duration timeout) {
    server = PrometheusServer.start(binary, home, port, config, timeout);
    exitCode = null;
  }

  /** Blocks until every target has been scraped ({@link PrometheusServer#awaitTargetsUp}). */
  void awaitTargetsUp(Duration timeout) {
    PrometheusServer s = server;
    if (s != null) {
      s.awaitTargetsUp(timeout);
    }
  }

  String url() {
    return "http://127.0.0.1:" + port;
  }

  @Override
  public int stop() {
    PrometheusServer s = server;
    if (s == null) {
      return -1;
    }
    s.close();
    return ended(s);
  }

  @Override
  public int kill() {
    PrometheusServer s = server;
    if (s == null) {
      return -1;
    }
    ProcessHandle.of(s.pid())
        .ifPresent(
            p -> {
              p.destroyForcibly();
              p.onExit().join();
            });
    // Gone already: close() only drops its shutdown hook.
    s.close();
    return ended(s);
  }

  private int ended(PrometheusServer s) {
    exitCode = s.exitCode().orElse(-1);
    return exitCode;
  }

  @Override
  public OptionalLong pid() {
    PrometheusServer s = server;
    return s != null && alive() ? OptionalLong.of(s.pid()) : OptionalLong.empty();
  }

  @Override
  public boolean alive() {
    PrometheusServer s = server;
    return s != null && s.exitCode().isEmpty();
  }

  @Override
  public Integer exitCode() {
    PrometheusServer s = server;
    if (exitCode == null && s != null && s.exitCode().isPresent()) {
      exitCode = s.exitCode().getAsInt();
    }
    return exitCode;
  }

  @Override
  public Path log() {
    return home.resolve("prometheus.log");
  }
}
