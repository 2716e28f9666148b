package io.sluice.stack;

import io.sluice.embedded.EmbeddedMariaDb;

/**
 * The endpoints of the process stack: every component listens on 127.0.0.1 on a port of {@link
 * StackPorts}, known before it starts, so its address is too.
 */
record ProcessUrls(StackPorts ports) {
  String bootstrapServers() {
    return "127.0.0.1:" + ports.kafka();
  }

  String schemaRegistryUrl() {
    return base(ports.registry());
  }

  String routerMetricsUrl() {
    return base(ports.metrics()) + "/metrics";
  }

  String routerHealthUrl() {
    return base(ports.metrics()) + "/health";
  }

  String upsertSinkMetricsUrl() {
    return base(ports.upsertSinkMetrics()) + "/metrics";
  }

  String monitorMetricsUrl() {
    return base(ports.monitorMetrics()) + "/metrics";
  }

  String monitorHealthUrl() {
    return base(ports.monitorMetrics()) + "/health";
  }

  String jdbcUrl() {
    return "jdbc:mariadb://127.0.0.1:" + ports.mariadb() + "/" + EmbeddedMariaDb.DATABASE;
  }

  String captureAdminUrl() {
    return base(ports.captureAdmin());
  }

  String connectUrl() {
    return base(ports.connect());
  }

  /** The health URL of a router instance's metrics endpoint on {@code port}. */
  static String health(int metricsPort) {
    return base(metricsPort) + "/health";
  }

  /** The REST URL of a Connect worker on {@code port}. */
  static String connect(int restPort) {
    return base(restPort);
  }

  /** {@code what}, with the instance number from the second instance on. */
  static String label(String what, int n) {
    return n == 1 ? what : what + " " + n;
  }

  private static String base(int port) {
    return "http://127.0.0.1:" + port;
  }
}
