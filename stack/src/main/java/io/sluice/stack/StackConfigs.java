package io.sluice.stack;

import io.sluice.capture.config.CaptureConfig;
import io.sluice.connect.upsert.config.UpsertSinkConfig;
import io.sluice.contract.TopicNames;
import io.sluice.embedded.EmbeddedMariaDb;
import io.sluice.router.config.RouterConfig;
import io.sluice.stack.db.OrdersTable;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;

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
      StackOptions options,
      String bootstrapServers,
      String registryUrl,
      Path stateDir,
      int metricsPort,
      String instanceId) {
    Map<String, Object> props = new LinkedHashMap<>();
    props.put(RouterConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(RouterConfig.SCHEMA_REGISTRY_URL_CONFIG, registryUrl);
    props.put(RouterConfig.APPLICATION_ID_CONFIG, options.layout().routerApplicationId());
    props.put(RouterConfig.STATE_DIR_CONFIG, stateDir.toString());
    props.put(RouterConfig.METRICS_HOST_CONFIG, "127.0.0.1");
    props.put(RouterConfig.METRICS_PORT_CONFIG, metricsPort);
    props.put("streams.group.instance.id", instanceId);
    props.putAll(options.routerConfig());
    return props;
  }

  /** Router keys the stack sets itself: its endpoints, state and group are not the user's. */
  static final Set<String> ROUTER_KEYS_OF_THE_STACK =
      Set.of(
          RouterConfig.BOOTSTRAP_SERVERS_CONFIG,
          RouterConfig.SCHEMA_REGISTRY_URL_CONFIG,
          RouterConfig.APPLICATION_ID_CONFIG,
          RouterConfig.STATE_DIR_CONFIG,
          RouterConfig.METRICS_HOST_CONFIG,
          RouterConfig.METRICS_PORT_CONFIG,
          "streams.group.instance.id");

  /**
   * Upsert sink keys the stack sets itself: what it reads, its tasks, its endpoint, the broker it
   * quarantines through, the registry it decodes with (the direct path) and the catalog it writes
   * to (those of the ready file, which every tool reads); also every {@value
   * UpsertSinkConfig#CATALOG_PREFIX} key.
   */
  static final Set<String> SINK_KEYS_OF_THE_STACK =
      Set.of(
          "topics",
          "topics.regex",
          "tasks.max",
          UpsertSinkConfig.METRICS_HOST_CONFIG,
          UpsertSinkConfig.METRICS_PORT_CONFIG,
          UpsertSinkConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG,
          UpsertSinkConfig.SCHEMA_REGISTRY_URL_CONFIG);

  /**
   * Upsert sink keys the stack sets to the router's value (the router's {@link TopicNames}): the
   * sink quarantines to the router's DLQ topic of each input, where the tools and the monitor look.
   */
  static final Set<String> SINK_KEYS_OF_THE_ROUTER =
      Set.of(TopicNames.CLEAN_SUFFIX_CONFIG, TopicNames.DLQ_SUFFIX_CONFIG);

  /**
   * Checks {@code sluice up --router-config} settings against the router's own config definition,
   * with the stack's settings beside them; an unknown key, a bad value or a key the stack owns is
   * an {@link IllegalArgumentException} naming the key and what to do.
   */
  static void checkRouterConfig(Map<String, String> settings) {
    for (String key : settings.keySet()) {
      if (ROUTER_KEYS_OF_THE_STACK.contains(key)) {
        throw new IllegalArgumentException(
            "--router-config " + key + ": the stack sets this itself; it cannot be changed here");
      }
      if (!key.startsWith(RouterConfig.STREAMS_PREFIX)
          && !RouterConfig.configDef().names().contains(key)) {
        throw new IllegalArgumentException(
            "--router-config "
                + key
                + ": not a router setting (see docs/configuration.md, or prefix a Kafka Streams"
                + " setting with "
                + RouterConfig.STREAMS_PREFIX
                + ")");
      }
    }
    Map<String, Object> props = new LinkedHashMap<>();
    props.put(RouterConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");
    props.put(RouterConfig.SCHEMA_REGISTRY_URL_CONFIG, "http://127.0.0.1:8081");
    props.putAll(settings);
    try {
      new RouterConfig(props);
    } catch (ConfigException e) {
      throw new IllegalArgumentException("--router-config: " + e.getMessage(), e);
    }
  }

  /**
   * Checks {@code sluice up --sink-config} settings against the upsert sink's own config
   * definition: an unknown key, a bad value, a key the stack owns or a topic suffix other than the
   * router's is an {@link IllegalArgumentException} naming the key.
   *
   * @param routerSettings the {@code --router-config} settings, already checked
   */
  static void checkSinkConfig(Map<String, String> settings, Map<String, String> routerSettings) {
    ConfigDef def = UpsertSinkConfig.configDef();
    TopicNames router = routerTopics(routerSettings);
    for (Map.Entry<String, String> e : settings.entrySet()) {
      String key = e.getKey();
      if (SINK_KEYS_OF_THE_STACK.contains(key) || key.startsWith(UpsertSinkConfig.CATALOG_PREFIX)) {
        throw new IllegalArgumentException(
            "--sink-config " + key + ": the stack sets this itself; it cannot be changed here");
      }
      if (SINK_KEYS_OF_THE_ROUTER.contains(key)) {
        checkFollowsRouter(key, e.getValue(), router, routerSettings.containsKey(key));
      }
      if (!def.names().contains(key)) {
        throw new IllegalArgumentException(
            "--sink-config " + key + ": not an upsert sink setting (see docs/configuration.md)");
      }
    }
    for (ConfigValue value : def.validate(settings)) {
      if (settings.containsKey(value.name()) && !value.errorMessages().isEmpty()) {
        throw new IllegalArgumentException(
            "--sink-config "
                + value.name()
                + "="
                + settings.get(value.name())
                + ": "
                + String.join("; ", value.errorMessages()));
      }
    }
  }

  /**
   * The router's topic names: its suffixes from {@code routerSettings}, else the defaults. What the
   * stack's layout, the sinks, the monitor and the ready file follow.
   */
  static TopicNames routerTopics(Map<String, String> routerSettings) {
    return TopicNames.of(
        routerSettings.getOrDefault(
            RouterConfig.CLEAN_TOPIC_SUFFIX_CONFIG, TopicNames.DEFAULT_CLEAN_SUFFIX),
        routerSettings.getOrDefault(
            RouterConfig.DLQ_TOPIC_SUFFIX_CONFIG, TopicNames.DEFAULT_DLQ_SUFFIX));
  }

  /**
   * A sink suffix equal to the router's is harmless (the stack passes the same); another would
   * quarantine the sink's records to topics that are no DLQ topic of the router's, which {@code
   * sluice dlq} and the monitor do not read.
   */
  private static void checkFollowsRouter(
      String key, String sinkValue, TopicNames router, boolean routerSet) {
    String routerValue =
        key.equals(TopicNames.CLEAN_SUFFIX_CONFIG) ? router.cleanSuffix() : router.dlqSuffix();
    if (!routerValue.equals(sinkValue)) {
      throw new IllegalArgumentException(
          "--sink-config "
              + key
              + "="
              + sinkValue
              + " differs from the router's "
              + key
              + "="
              + routerValue
              + (routerSet ? " (--router-config)" : " (its default)")
              + ": the stack gives the sink the router's suffix, so that it quarantines to the"
              + " router's DLQ topics; set it with --router-config "
              + key
              + "="
              + sinkValue
              + " (the sink, the monitor and sluice dlq follow it), and leave it out of"
              + " --sink-config");
    }
  }

  /** The capture's {@link CaptureConfig} keys: the lab database of MariaDB on {@code dbPort}. */
  static Map<String, Object> capture(
      StackLayout layout, int dbPort, String bootstrapServers, String registryUrl, int adminPort) {
    Map<String, Object> props = new LinkedHashMap<>();
    props.put(CaptureConfig.NAME_CONFIG, layout.captureName());
    props.put(CaptureConfig.CONNECTOR_CONFIG, "mariadb");
    props.put(CaptureConfig.DATABASE_HOSTNAME_CONFIG, "127.0.0.1");
    props.put(CaptureConfig.DATABASE_PORT_CONFIG, dbPort);
    props.put(CaptureConfig.DATABASE_USER_CONFIG, EmbeddedMariaDb.CDC_USER);
    props.put(CaptureConfig.DATABASE_PASSWORD_CONFIG, EmbeddedMariaDb.CDC_PASSWORD);
    props.put(CaptureConfig.DATABASE_INCLUDE_LIST_CONFIG, EmbeddedMariaDb.DATABASE);
    props.put(CaptureConfig.TOPIC_PREFIX_CONFIG, layout.topicPrefix());
    props.put(CaptureConfig.TOPIC_PARTITIONS_CONFIG, layout.mainTopicPartitions());
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
