package io.sluice.capture.config;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * Settings of the capture service, declared once. Keys starting with {@code debezium.} are passed
 * to the Debezium engine with the prefix removed, after Sluice's own settings, so a user can tune
 * any connector option.
 */
public final class CaptureConfig extends AbstractConfig {
  public static final String DEBEZIUM_PREFIX = "debezium.";

  public static final String NAME_CONFIG = "name";
  private static final String NAME_DOC =
      "Name of the capture connector; the admin API serves it under /connectors/{name}.";

  public static final String CONNECTOR_CONFIG = "connector";
  private static final String CONNECTOR_DOC =
      "Source database flavour: 'mariadb' (Debezium MariaDbConnector, GTID mode) or 'mysql'"
          + " (Debezium MySqlConnector, MySQL 8).";

  public static final String DATABASE_HOSTNAME_CONFIG = "database.hostname";
  private static final String DATABASE_HOSTNAME_DOC = "Host of the source database.";
  public static final String DATABASE_PORT_CONFIG = "database.port";
  private static final String DATABASE_PORT_DOC = "Port of the source database.";
  public static final String DATABASE_USER_CONFIG = "database.user";
  private static final String DATABASE_USER_DOC =
      "User with SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE/CLIENT (BINLOG MONITOR on"
          + " MariaDB) and LOCK TABLES.";
  public static final String DATABASE_PASSWORD_CONFIG = "database.password";
  private static final String DATABASE_PASSWORD_DOC = "Password of the capture user.";
  public static final String DATABASE_SERVER_ID_CONFIG = "database.server.id";
  private static final String DATABASE_SERVER_ID_DOC =
      "Replica server id the binlog client uses; unique among the database's replicas.";
  public static final String DATABASE_INCLUDE_LIST_CONFIG = "database.include.list";
  private static final String DATABASE_INCLUDE_LIST_DOC = "Databases to capture (regexes).";
  public static final String TABLE_INCLUDE_LIST_CONFIG = "table.include.list";
  private static final String TABLE_INCLUDE_LIST_DOC =
      "Tables to capture as <db>.<table> regexes; empty = every table of the included databases.";

  public static final String TOPIC_PREFIX_CONFIG = "topic.prefix";
  private static final String TOPIC_PREFIX_DOC =
      "Prefix of the change topics: events of <db>.<table> go to <prefix>.<db>.<table>.";
  public static final String TOPIC_PARTITIONS_CONFIG = "topic.partitions";
  private static final String TOPIC_PARTITIONS_DOC =
      "Partitions of a change topic created by the capture when it is missing.";

  public static final String BOOTSTRAP_SERVERS_CONFIG = "bootstrap.servers";
  private static final String BOOTSTRAP_SERVERS_DOC = "Kafka bootstrap servers.";
  public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";
  private static final String SCHEMA_REGISTRY_URL_DOC =
      "Confluent-compatible schema registry; subjects <topic>-key and <topic>-value.";

  public static final String OFFSET_STORAGE_CONFIG = "offset.storage";
  private static final String OFFSET_STORAGE_DOC =
      "Where engine offsets and schema history live: 'kafka' (topics below, survive the"
          + " process) or 'file' (files under offset.storage.dir).";
  public static final String OFFSET_STORAGE_TOPIC_CONFIG = "offset.storage.topic";
  private static final String OFFSET_STORAGE_TOPIC_DOC = "Compacted topic of engine offsets.";
  public static final String SCHEMA_HISTORY_TOPIC_CONFIG = "schema.history.topic";
  private static final String SCHEMA_HISTORY_TOPIC_DOC = "Topic of the captured DDL history.";
  public static final String OFFSET_STORAGE_DIR_CONFIG = "offset.storage.dir";
  private static final String OFFSET_STORAGE_DIR_DOC =
      "Directory of offsets.dat and schema-history.dat when offset.storage=file.";
  public static final String OFFSET_FLUSH_INTERVAL_MS_CONFIG = "offset.flush.interval.ms";
  private static final String OFFSET_FLUSH_INTERVAL_MS_DOC =
      "How often acknowledged positions are committed to the offset store.";

  public static final String ADMIN_HOST_CONFIG = "admin.host";
  private static final String ADMIN_HOST_DOC = "Bind address of the admin/metrics HTTP API.";
  public static final String ADMIN_PORT_CONFIG = "admin.port";
  private static final String ADMIN_PORT_DOC = "Port of the admin/metrics HTTP API; 0 = free port.";

  private static final ConfigDef CONFIG_DEF =
      new ConfigDef()
          .define(NAME_CONFIG, Type.STRING, "sluice-capture", Importance.MEDIUM, NAME_DOC)
          .define(
              CONNECTOR_CONFIG,
              Type.STRING,
              "mariadb",
              ConfigDef.CaseInsensitiveValidString.in("mariadb", "mysql"),
              Importance.HIGH,
              CONNECTOR_DOC)
          .define(
              DATABASE_HOSTNAME_CONFIG,
              Type.STRING,
              "127.0.0.1",
              Importance.HIGH,
              DATABASE_HOSTNAME_DOC)
          .define(
              DATABASE_PORT_CONFIG,
              Type.INT,
              3306,
              ConfigDef.Range.between(1, 65535),
              Importance.HIGH,
              DATABASE_PORT_DOC)
          .define(
              DATABASE_USER_CONFIG,
              Type.STRING,
              ConfigDef.NO_DEFAULT_VALUE,
              Importance.HIGH,
              DATABASE_USER_DOC)
          .define(
              DATABASE_PASSWORD_CONFIG, Type.PASSWORD, "", Importance.HIGH, DATABASE_PASSWORD_DOC)
          .define(
              DATABASE_SERVER_ID_CONFIG,
              Type.LONG,
              5400L,
              ConfigDef.Range.atLeast(1),
              Importance.MEDIUM,
              DATABASE_SERVER_ID_DOC)
          .define(
              DATABASE_INCLUDE_LIST_CONFIG,
              Type.STRING,
              "cdc_lab",
              Importance.HIGH,
              DATABASE_INCLUDE_LIST_DOC)
          .define(
              TABLE_INCLUDE_LIST_CONFIG, Type.STRING, "", Importance.MEDIUM, TABLE_INCLUDE_LIST_DOC)
          .define(
              TOPIC_PREFIX_CONFIG,
              Type.STRING,
              "broker",
              new ConfigDef.NonEmptyString(),
              Importance.HIGH,
              TOPIC_PREFIX_DOC)
          .define(
              TOPIC_PARTITIONS_CONFIG,
              Type.INT,
              3,
              ConfigDef.Range.atLeast(1),
              Importance.MEDIUM,
              TOPIC_PARTITIONS_DOC)
          .define(
              BOOTSTRAP_SERVERS_CONFIG,
              Type.STRING,
              ConfigDef.NO_DEFAULT_VALUE,
              new ConfigDef.NonEmptyString(),
              Importance.HIGH,
              BOOTSTRAP_SERVERS_DOC)
          .define(
              SCHEMA_REGISTRY_URL_CONFIG,
              Type.STRING,
              ConfigDef.NO_DEFAULT_VALUE,
              new ConfigDef.NonEmptyString(),
              Importance.HIGH,
              SCHEMA_REGISTRY_URL_DOC)
          .define(
              OFFSET_STORAGE_CONFIG,
              Type.STRING,
              "kafka",
              ConfigDef.CaseInsensitiveValidString.in("kafka", "file"),
              Importance.MEDIUM,
              OFFSET_STORAGE_DOC)
          .define(
              OFFSET_STORAGE_TOPIC_CONFIG,
              Type.STRING,
              "_sluice-capture-offsets",
              Importance.LOW,
              OFFSET_STORAGE_TOPIC_DOC)
          .define(
              SCHEMA_HISTORY_TOPIC_CONFIG,
              Type.STRING,
              "_sluice-capture-schema-history",
              Importance.LOW,
              SCHEMA_HISTORY_TOPIC_DOC)
          .define(
              OFFSET_STORAGE_DIR_CONFIG, Type.STRING, "", Importance.LOW, OFFSET_STORAGE_DIR_DOC)
          .define(
              OFFSET_FLUSH_INTERVAL_MS_CONFIG,
              Type.LONG,
              1000L,
              ConfigDef.Range.atLeast(0),
              Importance.LOW,
              OFFSET_FLUSH_INTERVAL_MS_DOC)
          .define(ADMIN_HOST_CONFIG, Type.STRING, "127.0.0.1", Importance.LOW, ADMIN_HOST_DOC)
          .define(
              ADMIN_PORT_CONFIG,
              Type.INT,
              0,
              ConfigDef.Range.between(0, 65535),
              Importance.LOW,
              ADMIN_PORT_DOC);

  public CaptureConfig(Map<?, ?> props) {
    super(CONFIG_DEF, props, false);
    for (Object key : props.keySet()) {
      String name = String.valueOf(key);
      if (!CONFIG_DEF.names().contains(name) && !name.startsWith(DEBEZIUM_PREFIX)) {
        throw new ConfigException(
            name,
            props.get(key),
            "unknown capture setting; known keys: "
                + CONFIG_DEF.names()
                + ", or debezium.* for connector options");
      }
    }
    if (isFileStorage() && getString(OFFSET_STORAGE_DIR_CONFIG).isBlank()) {
      throw new ConfigException(OFFSET_STORAGE_DIR_CONFIG, "", "required when offset.storage=file");
    }
  }

  public static ConfigDef configDef() {
    return CONFIG_DEF;
  }

  public String name() {
    return getString(NAME_CONFIG);
  }

  public boolean isFileStorage() {
    return "file".equals(getString(OFFSET_STORAGE_CONFIG).toLowerCase(Locale.ROOT));
  }

  public String connectorClass() {
    return "mysql".equals(getString(CONNECTOR_CONFIG).toLowerCase(Locale.ROOT))
        ? "io.debezium.connector.mysql.MySqlConnector"
        : "io.debezium.connector.mariadb.MariaDbConnector";
  }

  /** The Debezium engine properties: Sluice's choices first, then the user's debezium.* keys. */
  public Properties engineProperties() {
    Properties p = new Properties();
    p.put("name", name());
    p.put("connector.class", connectorClass());
    p.put("database.hostname", getString(DATABASE_HOSTNAME_CONFIG));
    p.put("database.port", String.valueOf(getInt(DATABASE_PORT_CONFIG)));
    p.put("database.user", getString(DATABASE_USER_CONFIG));
    p.put("database.password", getPassword(DATABASE_PASSWORD_CONFIG).value());
    p.put("database.server.id", String.valueOf(getLong(DATABASE_SERVER_ID_CONFIG)));
    p.put("database.include.list", getString(DATABASE_INCLUDE_LIST_CONFIG));
    if (!getString(TABLE_INCLUDE_LIST_CONFIG).isBlank()) {
      p.put("table.include.list", getString(TABLE_INCLUDE_LIST_CONFIG));
    }
    p.put("topic.prefix", getString(TOPIC_PREFIX_CONFIG));
    // Only row changes are published; DDL is kept in the schema history, not on a topic.
    p.put("include.schema.changes", "false");
    p.put("tombstones.on.delete", "true");
    p.put("decimal.handling.mode", "precise");
    p.put("offset.flush.interval.ms", String.valueOf(getLong(OFFSET_FLUSH_INTERVAL_MS_CONFIG)));
    String bootstrap = getString(BOOTSTRAP_SERVERS_CONFIG);
    if (isFileStorage()) {
      String dir = getString(OFFSET_STORAGE_DIR_CONFIG);
      p.put("offset.storage", "org.apache.kafka.connect.storage.FileOffsetBackingStore");
      p.put("offset.storage.file.filename", dir + "/offsets.dat");
      p.put("schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory");
      p.put("schema.history.internal.file.filename", dir + "/schema-history.dat");
    } else {
      p.put("offset.storage", "org.apache.kafka.connect.storage.KafkaOffsetBackingStore");
      p.put("offset.storage.topic", getString(OFFSET_STORAGE_TOPIC_CONFIG));
      p.put("offset.storage.partitions", "1");
      p.put("offset.storage.replication.factor", "1");
      p.put("bootstrap.servers", bootstrap);
      p.put("schema.history.internal", "io.debezium.storage.kafka.history.KafkaSchemaHistory");
      p.put("schema.history.internal.kafka.topic", getString(SCHEMA_HISTORY_TOPIC_CONFIG));
      p.put("schema.history.internal.kafka.bootstrap.servers", bootstrap);
    }
    for (Map.Entry<String, Object> e : originalsWithPrefix(DEBEZIUM_PREFIX).entrySet()) {
      p.put(e.getKey(), e.getValue() instanceof Password pw ? pw.value() : e.getValue().toString());
    }
    return p;
  }

  /** A copy of these settings with some keys replaced (tests and the embedded stack use it). */
  public CaptureConfig with(Map<String, ?> overrides) {
    Map<String, Object> props = new HashMap<>(originals());
    props.putAll(overrides);
    return new CaptureConfig(props);
  }
}
