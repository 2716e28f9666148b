package io.sluice.stack;

import io.sluice.capture.config.CaptureConfig;
import io.sluice.embedded.EmbeddedMariaDb;
import io.sluice.router.config.RouterConfig;
import io.sluice.stack.db.OrdersTable;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The configuration of the stack's components, the same whether they run in one JVM ({@link
 * EmbeddedStack}) or each in its own process ({@link ProcessStack}).
 */
final class StackConfigs {
  private StackConfigs() {}

  /**
   * The router's {@link RouterConfig} keys.
   *
   * @param stateDir its Kafka Streams state dir (one per router instance on a machine)
   * @param instanceId its static group membership: a restarted router takes its partitions back at
   *     once instead of waiting out the old member's session (Kafka Streams does not leave the
   *     group on close, and a SIGKILLed one cannot)
   */
  static Map<String, Object> router(
      String bootstrapServers,
      String registryUrl,
      Path stateDir,
      int metricsPort,
      String instanceId) {
    Map<String, Object> props = new LinkedHashMap<>();
    props.put(RouterConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(RouterConfig.SCHEMA_REGISTRY_URL_CONFIG, registryUrl);
    props.put(RouterConfig.APPLICATION_ID_CONFIG, EmbeddedStack.ROUTER_APPLICATION_ID);
    props.put(RouterConfig.STATE_DIR_CONFIG, stateDir.toString());
    props.put(RouterConfig.METRICS_HOST_CONFIG, "127.0.0.1");
    props.put(RouterConfig.METRICS_PORT_CONFIG, metricsPort);
    props.put("streams.group.instance.id", instanceId);
    return props;
  }

  /** The capture's {@link CaptureConfig} keys: the lab database of MariaDB on {@code dbPort}. */
  static Map<String, Object> capture(
      int dbPort, String bootstrapServers, String registryUrl, int adminPort) {
    Map<String, Object> props = new LinkedHashMap<>();
    props.put(CaptureConfig.NAME_CONFIG, EmbeddedStack.CAPTURE_NAME);
    props.put(CaptureConfig.CONNECTOR_CONFIG, "mariadb");
    props.put(CaptureConfig.DATABASE_HOSTNAME_CONFIG, "127.0.0.1");
    props.put(CaptureConfig.DATABASE_PORT_CONFIG, dbPort);
    props.put(CaptureConfig.DATABASE_USER_CONFIG, EmbeddedMariaDb.CDC_USER);
    props.put(CaptureConfig.DATABASE_PASSWORD_CONFIG, EmbeddedMariaDb.CDC_PASSWORD);
    props.put(CaptureConfig.DATABASE_INCLUDE_LIST_CONFIG, EmbeddedMariaDb.DATABASE);
    props.put(CaptureConfig.TOPIC_PREFIX_CONFIG, EmbeddedStack.TOPIC_PREFIX);
    props.put(CaptureConfig.TOPIC_PARTITIONS_CONFIG, EmbeddedStack.MAIN_TOPIC_PARTITIONS);
    props.put(CaptureConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(CaptureConfig.SCHEMA_REGISTRY_URL_CONFIG, registryUrl);
    props.put(CaptureConfig.ADMIN_HOST_CONFIG, "127.0.0.1");
    props.put(CaptureConfig.ADMIN_PORT_CONFIG, adminPort);
    return props;
  }

  /** Creates {@code cdc_lab.orders} when missing: the table every scenario starts from. */
  static void createOrdersTable(EmbeddedMariaDb mariaDb) {
    try (Connection c = mariaDb.connect();
        Statement s = c.createStatement()) {
      s.execute(OrdersTable.CREATE_SQL);
    } catch (SQLException e) {
      throw new StackStartException("cannot create " + OrdersTable.QUALIFIED_NAME, e);
    }
  }
}
