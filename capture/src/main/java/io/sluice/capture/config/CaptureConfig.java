package io.sluice.capture.config;

import io.sluice.observe.config.ConfigTable;
import io.sluice.observe.config.Validators;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.CaseInsensitiveValidString;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.NonEmptyString;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The capture service's configuration, declared once. Keys starting with {@value #DEBEZIUM_PREFIX}
 * are passed to the Debezium engine with the prefix removed, after Sluice's own settings, so a user
 * can tune any connector option; any other key that is not declared here fails the start, naming
 * the key.
 */
public final class CaptureConfig extends AbstractConfig {
  /** Prefix of the keys passed through to the Debezium engine (prefix stripped). */
  public static final String DEBEZIUM_PREFIX = "debezium.";

  private static final String GROUP_SOURCE = "Source database";
  private static final String GROUP_CONNECTION = "Connection";
  private static final String GROUP_TOPICS = "Topics";
  private static final String GROUP_OFFSETS = "Offsets";
  private static final String GROUP_RUNTIME = "Runtime";

  /** The largest MySQL/MariaDB server id: an unsigned 32-bit integer. */
  private static final long MAX_SERVER_ID = 4_294_967_295L;

  public static final String CONNECTOR_CONFIG = "connector";
  public static final String CONNECTOR_DOC =
      "Source database flavour: `mariadb` (Debezium MariaDbConnector, GTID mode) or `mysql`"
          + " (Debezium MySqlConnector, MySQL 8).";

  public static final String DATABASE_HOSTNAME_CONFIG = "database.hostname";
  public static final String DATABASE_HOSTNAME_DOC = "Host of the source database.";

  public static final String DATABASE_PORT_CONFIG = "database.port";
  public static final String DATABASE_PORT_DOC = "Port of the source database.";

  public static final String DATABASE_USER_CONFIG = "database.user";
  public static final String DATABASE_USER_DOC =
      "User with SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE/CLIENT (BINLOG MONITOR on"
          + " MariaDB) and LOCK TABLES.";

  public static final String DATABASE_PASSWORD_CONFIG = "database.password";
  public static final String DATABASE_PASSWORD_DOC = "Password of the capture user.";

  public static final String DATABASE_SERVER_ID_CONFIG = "database.server.id";
  public static final String DATABASE_SERVER_ID_DOC =
      "Replica server id the binlog client uses; unique among the database's replicas.";

  public static final String DATABASE_INCLUDE_LIST_CONFIG = "database.include.list";
  public static final String DATABASE_INCLUDE_LIST_DOC =
      "Databases to capture, as regexes separated by commas.";

  public static final String TABLE_INCLUDE_LIST_CONFIG = "table.include.list";
  public static final String TABLE_INCLUDE_LIST_DOC =
      "Tables to capture, as `<db>.<table>` regexes separated by commas; empty: every table of the"
          + " included databases.";

  public static final String BOOTSTRAP_SERVERS_CONFIG = "bootstrap.servers";
  public static final String BOOTSTRAP_SERVERS_DOC =
      "Kafka brokers to publish to (and, with offset.storage=kafka, to keep offsets and schema"
          + " history on), as host:port pairs separated by commas.";

  public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";
  public static final String SCHEMA_REGISTRY_URL_DOC =
      "Base URL of the Confluent-compatible schema registry the key and value schemas are"
          + " registered in, under the subjects `<topic>-key` and `<topic>-value`.";

  public static final String TOPIC_PREFIX_CONFIG = "topic.prefix";
  public static final String TOPIC_PREFIX_DOC =
      "Prefix of the change topics: events of `<db>.<table>` go to `<prefix>.<db>.<table>`.";

  public static final String TOPIC_PARTITIONS_CONFIG = "topic.partitions";
  public static final String TOPIC_PARTITIONS_DOC =
      "Partitions of a change topic the capture creates when it is missing.";

  public static final String OFFSET_STORAGE_CONFIG = "offset.storage";
  public static final String OFFSET_STORAGE_DOC =
      "Where the engine's offsets and schema history live: `kafka` (the two topics below; they"
          + " outlive the process) or `file` (files under offset.storage.dir).";

  public static final String OFFSET_STORAGE_TOPIC_CONFIG = "offset.storage.topic";
  public static final String OFFSET_STORAGE_TOPIC_DOC =
      "Compacted topic of the engine's offsets, with offset.storage=kafka.";

  public static final String SCHEMA_HISTORY_TOPIC_CONFIG = "schema.history.topic";
  public static final String SCHEMA_HISTORY_TOPIC_DOC =
      "Topic of the captured DDL history, with offset.storage=kafka.";

  public static final String OFFSET_STORAGE_DIR_CONFIG = "offset.storage.dir";
  public static final String OFFSET_STORAGE_DIR_DOC =
      "Directory of offsets.dat and schema-history.dat; required with offset.storage=file.";

  public static final String OFFSET_FLUSH_INTERVAL_MS_CONFIG = "offset.flush.interval.ms";
  public static final String OFFSET_FLUSH_INTERVAL_MS_DOC =
      "How often the positions Kafka acknowledged are committed to the offset store; a crash"
          + " repeats the events since the last commit.";

  public static final String NAME_CONFIG = "name";
  public static final String NAME_DOC =
      "Name of the capture connector; the admin API serves it under `/connectors/{name}`.";

  public static final String ADMIN_HOST_CONFIG = "admin.host";
  public static final String ADMIN_HOST_DOC =
      "Address the admin HTTP API (status, offsets, pause and resume, `/metrics`) binds to.";

  public static final String ADMIN_PORT_CONFIG = "admin.port";
  public static final String ADMIN_PORT_DOC = "Port of the admin HTTP API; 0 picks a free port.";

  private static final ConfigDef CONFIG_DEF = buildConfigDef();

  /**
   * Parses and validates {@code props}.
   *
   * @throws ConfigException naming the first offending key (and value, for a declared key)
   */
  public CaptureConfig(Map<?, ?> props) {
    super(CONFIG_DEF, props, false);
    rejectUnknownKeys(props);
    if (isFileStorage() && getString(OFFSET_STORAGE_DIR_CONFIG).isBlank()) {
      throw new ConfigException(
          OFFSET_STORAGE_DIR_CONFIG,
          getString(OFFSET_STORAGE_DIR_CONFIG),
          "required when offset.storage=file");
    }
  }

  /** The generated table of these keys in docs/configuration.md. */
  public static ConfigTable docsTable() {
    return new ConfigTable("capture-config", "capture configuration", configDef());
  }

  /** Every capture key with its doc, default, validator and importance. */
  public static ConfigDef configDef() {
    return new ConfigDef(CONFIG_DEF);
  }

  public String name() {
    return getString(NAME_CONFIG);
  }

  public String bootstrapServers() {
    return getString(BOOTSTRAP_SERVERS_CONFIG);
  }

  public String schemaRegistryUrl() {
    return getString(SCHEMA_REGISTRY_URL_CONFIG);
  }

  public String topicPrefix() {
    return getString(TOPIC_PREFIX_CONFIG);
  }

  public int topicPartitions() {
    return getInt(TOPIC_PARTITIONS_CONFIG);
  }

  public String adminHost() {
    return getString(ADMIN_HOST_CONFIG);
  }

  public int adminPort() {
    return getInt(ADMIN_PORT_CONFIG);
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
    p.put("topic.prefix", topicPrefix());
    // Only row changes are published; DDL is kept in the schema history, not on a topic.
    p.put("include.schema.changes", "false");
    p.put("tombstones.on.delete", "true");
    p.put("decimal.handling.mode", "precise");
    p.put("offset.flush.interval.ms", String.valueOf(getLong(OFFSET_FLUSH_INTERVAL_MS_CONFIG)));
    String bootstrap = bootstrapServers();
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

  private static void rejectUnknownKeys(Map<?, ?> props) {
    for (Object key : props.keySet()) {
      String name = String.valueOf(key);
      if (!CONFIG_DEF.names().contains(name) && !name.startsWith(DEBEZIUM_PREFIX)) {
        // The value is not echoed: a misspelt key may hold a password.
        throw new ConfigException(
            "Unknown capture configuration key '"
                + name
                + "'. Capture keys are listed in docs/configuration.md, 'Capture configuration';"
                + " Debezium connector options take the prefix '"
                + DEBEZIUM_PREFIX
                + "'");
      }
    }
  }

  private static ConfigDef buildConfigDef() {
    ConfigDef def = new ConfigDef();
    int order = 0;
    def.define(
        CONNECTOR_CONFIG,
        Type.STRING,
        "mariadb",
        CaseInsensitiveValidString.in("mariadb", "mysql"),
        Importance.HIGH,
        CONNECTOR_DOC,
        GROUP_SOURCE,
        ++order,
        Width.SHORT,
        "Connector");
    def.define(
        DATABASE_HOSTNAME_CONFIG,
        Type.STRING,
        "127.0.0.1",
        new NonEmptyString(),
        Importance.HIGH,
        DATABASE_HOSTNAME_DOC,
        GROUP_SOURCE,
        ++order,
        Width.MEDIUM,
        "Database host");
    def.define(
        DATABASE_PORT_CONFIG,
        Type.INT,
        3306,
        Range.between(1, 65535),
        Importance.HIGH,
        DATABASE_PORT_DOC,
        GROUP_SOURCE,
        ++order,
        Width.SHORT,
        "Database port");
    def.define(
        DATABASE_USER_CONFIG,
        Type.STRING,
        ConfigDef.NO_DEFAULT_VALUE,
        new NonEmptyString(),
        Importance.HIGH,
        DATABASE_USER_DOC,
        GROUP_SOURCE,
        ++order,
        Width.MEDIUM,
        "Database user");
    def.define(
        DATABASE_PASSWORD_CONFIG,
        Type.PASSWORD,
        "",
        null,
        Importance.HIGH,
        DATABASE_PASSWORD_DOC,
        GROUP_SOURCE,
        ++order,
        Width.MEDIUM,
        "Database password");
    def.define(
        DATABASE_SERVER_ID_CONFIG,
        Type.LONG,
        5400L,
        Range.between(1L, MAX_SERVER_ID),
        Importance.MEDIUM,
        DATABASE_SERVER_ID_DOC,
        GROUP_SOURCE,
        ++order,
        Width.SHORT,
        "Server id");
    def.define(
        DATABASE_INCLUDE_LIST_CONFIG,
        Type.STRING,
        "cdc_lab",
        null,
        Importance.HIGH,
        DATABASE_INCLUDE_LIST_DOC,
        GROUP_SOURCE,
        ++order,
        Width.LONG,
        "Databases");
    def.define(
        TABLE_INCLUDE_LIST_CONFIG,
        Type.STRING,
        "",
        null,
        Importance.MEDIUM,
        TABLE_INCLUDE_LIST_DOC,
        GROUP_SOURCE,
        ++order,
        Width.LONG,
        "Tables");

    order = 0;
    def.define(
        BOOTSTRAP_SERVERS_CONFIG,
        Type.STRING,
        ConfigDef.NO_DEFAULT_VALUE,
        new NonEmptyString(),
        Importance.HIGH,
        BOOTSTRAP_SERVERS_DOC,
        GROUP_CONNECTION,
        ++order,
        Width.LONG,
        "Bootstrap servers");
    def.define(
        SCHEMA_REGISTRY_URL_CONFIG,
        Type.STRING,
        ConfigDef.NO_DEFAULT_VALUE,
        Validators.httpUrl(),
        Importance.HIGH,
        SCHEMA_REGISTRY_URL_DOC,
        GROUP_CONNECTION,
        ++order,
        Width.LONG,
        "Schema registry URL");

    order = 0;
    def.define(
        TOPIC_PREFIX_CONFIG,
        Type.STRING,
        "broker",
        new NonEmptyString(),
        Importance.HIGH,
        TOPIC_PREFIX_DOC,
        GROUP_TOPICS,
        ++order,
        Width.MEDIUM,
        "Topic prefix");
    def.define(
        TOPIC_PARTITIONS_CONFIG,
        Type.INT,
        3,
        Range.atLeast(1),
        Importance.MEDIUM,
        TOPIC_PARTITIONS_DOC,
        GROUP_TOPICS,
        ++order,
        Width.SHORT,
        "Topic partitions");

    order = 0;
    def.define(
        OFFSET_STORAGE_CONFIG,
        Type.STRING,
        "kafka",
        CaseInsensitiveValidString.in("kafka", "file"),
        Importance.MEDIUM,
        OFFSET_STORAGE_DOC,
        GROUP_OFFSETS,
        ++order,
        Width.SHORT,
        "Offset storage");
    def.define(
        OFFSET_STORAGE_TOPIC_CONFIG,
        Type.STRING,
        "_sluice-capture-offsets",
        new NonEmptyString(),
        Importance.LOW,
        OFFSET_STORAGE_TOPIC_DOC,
        GROUP_OFFSETS,
        ++order,
        Width.MEDIUM,
        "Offset topic");
    def.define(
        SCHEMA_HISTORY_TOPIC_CONFIG,
        Type.STRING,
        "_sluice-capture-schema-history",
        new NonEmptyString(),
        Importance.LOW,
        SCHEMA_HISTORY_TOPIC_DOC,
        GROUP_OFFSETS,
        ++order,
        Width.MEDIUM,
        "Schema history topic");
    def.define(
        OFFSET_STORAGE_DIR_CONFIG,
        Type.STRING,
        "",
        null,
        Importance.LOW,
        OFFSET_STORAGE_DIR_DOC,
        GROUP_OFFSETS,
        ++order,
        Width.LONG,
        "Offset directory");
    def.define(
        OFFSET_FLUSH_INTERVAL_MS_CONFIG,
        Type.LONG,
        1000L,
        Range.atLeast(0L),
        Importance.LOW,
        OFFSET_FLUSH_INTERVAL_MS_DOC,
        GROUP_OFFSETS,
        ++order,
        Width.SHORT,
        "Offset flush interval");

    order = 0;
    def.define(
        NAME_CONFIG,
        Type.STRING,
        "sluice-capture",
        new NonEmptyString(),
        Importance.MEDIUM,
        NAME_DOC,
        GROUP_RUNTIME,
        ++order,
        Width.MEDIUM,
        "Connector name");
    def.define(
        ADMIN_HOST_CONFIG,
        Type.STRING,
        "127.0.0.1",
        new NonEmptyString(),
        Importance.LOW,
        ADMIN_HOST_DOC,
        GROUP_RUNTIME,
        ++order,
        Width.MEDIUM,
        "Admin host");
    def.define(
        ADMIN_PORT_CONFIG,
        Type.INT,
        0,
        Range.between(0, 65535),
        Importance.LOW,
        ADMIN_PORT_DOC,
        GROUP_RUNTIME,
        ++order,
        Width.SHORT,
        "Admin port");
    return def;
  }
}
