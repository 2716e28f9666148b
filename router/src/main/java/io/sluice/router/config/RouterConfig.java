package io.sluice.router.config;

import io.sluice.contract.TopicNames;
import io.sluice.contract.TopicSuffixException;
import io.sluice.dlq.DlqFormat;
import io.sluice.observe.config.ConfigTable;
import io.sluice.observe.config.Validators;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.CaseInsensitiveValidString;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The router's configuration, declared once. Keys starting with {@value #STREAMS_PREFIX} are handed
 * to Kafka Streams with the prefix stripped; any other key that is not declared here fails the
 * start, naming the key.
 */
public final class RouterConfig extends AbstractConfig {
  /** Prefix of the keys passed through to Kafka Streams (prefix stripped). */
  public static final String STREAMS_PREFIX = "streams.";

  private static final String GROUP_CONNECTION = "Connection";
  private static final String GROUP_TOPICS = "Topics";
  private static final String GROUP_VALIDATION = "Validation";
  private static final String GROUP_REGISTRY = "Registry outages";
  private static final String GROUP_RUNTIME = "Runtime";

  public static final String BOOTSTRAP_SERVERS_CONFIG = "bootstrap.servers";
  public static final String BOOTSTRAP_SERVERS_DOC =
      "Kafka brokers to connect to, as host:port pairs separated by commas.";

  public static final String APPLICATION_ID_CONFIG = "application.id";
  public static final String APPLICATION_ID_DEFAULT = "sluice-router";
  public static final String APPLICATION_ID_DOC =
      "Kafka Streams application id: the consumer group, the prefix of transactional ids, and the"
          + " `router_application_id` written into every DLQ envelope.";

  public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";
  public static final String SCHEMA_REGISTRY_URL_DOC =
      "Base URL of the Confluent-compatible schema registry that resolves the schema ids of keys"
          + " and values.";

  public static final String STATE_DIR_CONFIG = "state.dir";
  public static final String STATE_DIR_DOC =
      "Kafka Streams state directory. The topology is stateless; null keeps Kafka Streams' default"
          + " (a `kafka-streams` folder under java.io.tmpdir).";

  public static final String PROCESSING_GUARANTEE_CONFIG = "processing.guarantee";
  public static final String PROCESSING_GUARANTEE_DOC =
      "exactly_once_v2 writes clean and DLQ records in the same Kafka transaction as the input"
          + " offsets, so each poison record yields exactly one DLQ record. at_least_once may"
          + " duplicate after a crash. Any other Kafka Streams setting can be given as"
          + " `streams.<key>`.";

  public static final String INPUT_TOPIC_PATTERN_CONFIG = "input.topic.pattern";
  public static final String INPUT_TOPIC_PATTERN_DEFAULT =
      "^(?!_)[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.(?!(?:clean|dlq|repairs)$)[A-Za-z0-9_-]+$";
  public static final String INPUT_TOPIC_PATTERN_DOC =
      "Java regex of the input topics (default: Debezium-style `<prefix>.<db>.<table>`). Topics"
          + " ending with the clean or DLQ suffix or `.repairs`, and topics starting with `_`, are"
          + " never inputs, even when this pattern matches them.";

  public static final String TOPIC_REFRESH_INTERVAL_MS_CONFIG = "topic.refresh.interval.ms";
  public static final String TOPIC_REFRESH_INTERVAL_MS_DOC =
      "How often the consumer refreshes topic metadata (its metadata.max.age.ms), which bounds how"
          + " long a newly created matching topic waits before it is routed.";

  public static final String CLEAN_TOPIC_SUFFIX_CONFIG = TopicNames.CLEAN_SUFFIX_CONFIG;
  public static final String CLEAN_TOPIC_SUFFIX_DOC =
      "Valid records of `<topic>` go to `<topic><suffix>`, same partition, same bytes. The upsert"
          + " sink's key of the same name must match; the stack records it in the ready file"
          + " (`topics`), where `sluice dlq` and `sluice monitor` read it. No suffix may end with"
          + " another (this, the DLQ suffix, `.repairs`).";

  public static final String DLQ_TOPIC_SUFFIX_CONFIG = TopicNames.DLQ_SUFFIX_CONFIG;
  public static final String DLQ_TOPIC_SUFFIX_DOC =
      "Poison records of `<topic>` go to `<topic><suffix>`; the DLQ tools' ledger of it is"
          + " `<topic><suffix>.repairs`. The upsert sink's key of the same name must match; the"
          + " stack records it in the ready file (`topics`), where `sluice dlq` and `sluice"
          + " monitor` read it.";

  public static final String REPLICATION_FACTOR_CONFIG = "replication.factor";
  public static final String REPLICATION_FACTOR_DOC =
      "Replication factor of the clean and DLQ topics the router creates; -1 uses the broker's"
          + " default.replication.factor. Both get the input topic's partition count.";

  public static final String TOMBSTONES_CONFIG = "tombstones";
  public static final String TOMBSTONES_DOC =
      "What to do with a record whose value is null: `pass` it to the clean topic or `drop` it.";

  public static final String DLQ_FORMAT_CONFIG = "dlq.format";
  public static final String DLQ_FORMAT_DOC =
      "DLQ record value: `envelope` (JSON envelope v1 with the original bytes in base64 and the"
          + " error) or `raw` (the original value bytes). The error headers are written in both.";

  public static final String CONTRACT_ENABLED_CONFIG = "contract.enabled";
  public static final String CONTRACT_ENABLED_DOC =
      "Check the Debezium envelope contract (CONTRACT_VIOLATION): op allowed, `after` present for"
          + " c/u/r, `before` present for d, primary-key fields non-null.";

  public static final String SCHEMA_LINEAGE_CHECK_CONFIG = "schema.lineage.check";
  public static final String SCHEMA_LINEAGE_CHECK_DOC =
      "Check that the lake can follow each record's writer schema (SCHEMA_INCOMPATIBLE,"
          + " KEY_SCHEMA_INCOMPATIBLE): a version of the subject is taken when Iceberg can evolve"
          + " the schemas the subject's earlier accepted versions add up to into it (optional"
          + " fields added or dropped, int to long, float to double, decimal precision widened,"
          + " fields made optional); derived from the registry alone, see docs/design.md.";

  public static final String CONTRACT_ALLOWED_OPS_CONFIG = "contract.allowed.ops";
  public static final String CONTRACT_ALLOWED_OPS_DOC =
      "Debezium `op` values accepted by the contract check.";

  public static final String VALIDATE_AHEAD_CONFIG = "validate.ahead";

  /** The default of {@code validate.ahead}: the path the router benchmark has measured. */
  public static final String VALIDATE_AHEAD_DEFAULT = "false";

  /** {@code validate.ahead=auto} validates ahead from this many available processors on. */
  public static final int VALIDATE_AHEAD_MIN_PROCESSORS = 3;

  public static final String VALIDATE_AHEAD_DOC =
      "Validate each poll's records on a background thread while the stream thread is busy or"
          + " waits for a commit; the stream thread then takes a valid verdict instead of scanning"
          + " the bytes itself (poison, tombstones and registry outages are always decided by the"
          + " stream thread). `false`, the default, validates on the stream threads only: the"
          + " measured path. `true` uses one more thread; `auto` does so when the JVM has at"
          + " least "
          + VALIDATE_AHEAD_MIN_PROCESSORS
          + " available processors. The thread only pays off on a core the stream threads and"
          + " the producers' I/O threads leave idle; on 2 cores it cost more CPU than it saved"
          + " the stream thread, and `true` and `auto` are unmeasured on "
          + VALIDATE_AHEAD_MIN_PROCESSORS
          + " or more (see docs/benchmarks.md).";

  public static final String REGISTRY_RETRY_BACKOFF_MS_CONFIG = "registry.retry.backoff.ms";
  public static final String REGISTRY_RETRY_BACKOFF_MS_DOC =
      "First wait before retrying a record whose schema lookup failed because the registry was"
          + " unavailable; doubles on every retry.";

  public static final String REGISTRY_RETRY_BACKOFF_MAX_MS_CONFIG = "registry.retry.backoff.max.ms";
  public static final String REGISTRY_RETRY_BACKOFF_MAX_MS_DOC =
      "Upper bound of the wait between two registry retries.";

  public static final String REGISTRY_RETRY_TIMEOUT_MS_CONFIG = "registry.retry.timeout.ms";
  public static final String REGISTRY_RETRY_TIMEOUT_MS_DOC =
      "How long one record may wait for the registry before its task fails and Kafka Streams"
          + " restarts it from the last committed offset (an unavailable registry never makes a"
          + " DLQ record). Must stay below max.poll.interval.ms and, with exactly_once_v2, below"
          + " the producer's transaction.timeout.ms, which defaults to this value + 30 s. A router"
          + " killed without closing leaves its open transaction to that timeout: read_committed"
          + " readers and the restarted router wait for it.";

  public static final String METRICS_HOST_CONFIG = "metrics.host";
  public static final String METRICS_HOST_DOC =
      "Address the HTTP server for `/metrics` (Prometheus text) and `/health` binds to.";

  public static final String METRICS_PORT_CONFIG = "metrics.port";
  public static final String METRICS_PORT_DOC =
      "Port of the metrics HTTP server; 0 picks a free port (see the log or Router.metricsUrl()).";

  public static final String CLOSE_TIMEOUT_MS_CONFIG = "close.timeout.ms";
  public static final String CLOSE_TIMEOUT_MS_DOC =
      "How long closing the router waits for Kafka Streams to commit and stop.";

  /** How long Kafka Streams may leave a transaction open beyond the registry retry bound. */
  static final long TRANSACTION_TIMEOUT_MARGIN_MS = 30_000;

  private static final long MAX_POLL_INTERVAL_DEFAULT_MS = 300_000;

  /** Router keys that Kafka Streams also knows: set them without the prefix. */
  private static final Set<String> STREAMS_KEYS_OWNED_HERE =
      Set.of(
          BOOTSTRAP_SERVERS_CONFIG,
          APPLICATION_ID_CONFIG,
          STATE_DIR_CONFIG,
          PROCESSING_GUARANTEE_CONFIG);

  /** Handlers that can skip a record: the router must never lose one silently. */
  private static final Set<String> FORBIDDEN_STREAMS_KEYS =
      Set.of(
          "processing.exception.handler",
          "default.production.exception.handler",
          "production.exception.handler",
          "default.deserialization.exception.handler",
          "deserialization.exception.handler");

  private static final ConfigDef CONFIG_DEF = buildConfigDef();

  private final Map<String, Object> streamsOverrides;

  /**
   * Parses and validates {@code props}.
   *
   * @throws ConfigException naming the first offending key and value
   */
  public RouterConfig(Map<?, ?> props) {
    super(CONFIG_DEF, booleansAsStrings(props), false);
    this.streamsOverrides = validateStreamsKeys(props);
    validateCrossKeys();
  }

  /**
   * {@code validate.ahead} was a boolean before {@code auto}: a Boolean given in code still works.
   */
  private static Map<?, ?> booleansAsStrings(Map<?, ?> props) {
    if (!(props.get(VALIDATE_AHEAD_CONFIG) instanceof Boolean value)) {
      return props;
    }
    Map<Object, Object> copy = new HashMap<>(props);
    copy.put(VALIDATE_AHEAD_CONFIG, value.toString());
    return copy;
  }

  /** The generated table of these keys in docs/configuration.md. */
  public static ConfigTable docsTable() {
    return new ConfigTable("router-config", "router configuration", configDef());
  }

  /** Every router key with its doc, default, validator and importance. */
  public static ConfigDef configDef() {
    return new ConfigDef(CONFIG_DEF);
  }

  public String bootstrapServers() {
    return String.join(",", getList(BOOTSTRAP_SERVERS_CONFIG));
  }

  public String applicationId() {
    return getString(APPLICATION_ID_CONFIG);
  }

  public String schemaRegistryUrl() {
    return getString(SCHEMA_REGISTRY_URL_CONFIG);
  }

  /** The state directory, or null for Kafka Streams' default. */
  public String stateDir() {
    return getString(STATE_DIR_CONFIG);
  }

  public String processingGuarantee() {
    return getString(PROCESSING_GUARANTEE_CONFIG);
  }

  public Pattern inputTopicPattern() {
    return Pattern.compile(getString(INPUT_TOPIC_PATTERN_CONFIG));
  }

  public long topicRefreshIntervalMs() {
    return getLong(TOPIC_REFRESH_INTERVAL_MS_CONFIG);
  }

  public String cleanTopicSuffix() {
    return getString(CLEAN_TOPIC_SUFFIX_CONFIG);
  }

  public String dlqTopicSuffix() {
    return getString(DLQ_TOPIC_SUFFIX_CONFIG);
  }

  /**
   * The names of the outputs and ledgers: {@value #CLEAN_TOPIC_SUFFIX_CONFIG}, {@value
   * #DLQ_TOPIC_SUFFIX_CONFIG}.
   */
  public TopicNames topicNames() {
    return TopicNames.of(cleanTopicSuffix(), dlqTopicSuffix());
  }

  /** The replication factor of created topics, or -1 for the broker default. */
  public int replicationFactor() {
    return getInt(REPLICATION_FACTOR_CONFIG);
  }

  public TombstoneMode tombstones() {
    return TombstoneMode.valueOf(getString(TOMBSTONES_CONFIG).toUpperCase(Locale.ROOT));
  }

  public DlqFormat dlqFormat() {
    return DlqFormat.valueOf(getString(DLQ_FORMAT_CONFIG).toUpperCase(Locale.ROOT));
  }

  public boolean contractEnabled() {
    return getBoolean(CONTRACT_ENABLED_CONFIG);
  }

  public boolean schemaLineageChecked() {
    return getBoolean(SCHEMA_LINEAGE_CHECK_CONFIG);
  }

  /**
   * Whether to validate ahead with {@code processors} available processors: {@code validate.ahead},
   * with {@code auto} resolved.
   */
  public boolean validateAhead(int processors) {
    return switch (getString(VALIDATE_AHEAD_CONFIG).toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> processors >= VALIDATE_AHEAD_MIN_PROCESSORS;
    };
  }

  public List<String> contractAllowedOps() {
    return getList(CONTRACT_ALLOWED_OPS_CONFIG);
  }

  public long registryRetryBackoffMs() {
    return getLong(REGISTRY_RETRY_BACKOFF_MS_CONFIG);
  }

  public long registryRetryBackoffMaxMs() {
    return getLong(REGISTRY_RETRY_BACKOFF_MAX_MS_CONFIG);
  }

  public long registryRetryTimeoutMs() {
    return getLong(REGISTRY_RETRY_TIMEOUT_MS_CONFIG);
  }

  public String metricsHost() {
    return getString(METRICS_HOST_CONFIG);
  }

  public int metricsPort() {
    return getInt(METRICS_PORT_CONFIG);
  }

  public long closeTimeoutMs() {
    return getLong(CLOSE_TIMEOUT_MS_CONFIG);
  }

  /** The {@code streams.*} keys with the prefix stripped, as given. */
  public Map<String, Object> streamsOverrides() {
    return streamsOverrides;
  }

  /** True when {@code exactly_once_v2} is on. */
  public boolean exactlyOnce() {
    return "exactly_once_v2".equals(processingGuarantee());
  }

  /**
   * The transaction timeout Kafka Streams' producers get: the {@code streams.*} override when
   * given, else the registry retry bound plus a margin.
   */
  public long transactionTimeoutMs() {
    Object override =
        firstPresent(streamsOverrides, "producer.transaction.timeout.ms", "transaction.timeout.ms");
    return override != null
        ? parseLong("transaction.timeout.ms", override)
        : registryRetryTimeoutMs() + TRANSACTION_TIMEOUT_MARGIN_MS;
  }

  private Map<String, Object> validateStreamsKeys(Map<?, ?> props) {
    Map<String, Object> overrides = new HashMap<>();
    for (Map.Entry<?, ?> entry : props.entrySet()) {
      String key = String.valueOf(entry.getKey());
      if (!key.startsWith(STREAMS_PREFIX)) {
        if (!CONFIG_DEF.names().contains(key)) {
          // The value is not echoed: a misspelt key may hold a password.
          throw new ConfigException(
              "Unknown router configuration key '"
                  + key
                  + "'. Router keys are listed in docs/configuration.md, 'Router configuration';"
                  + " Kafka Streams settings take the prefix '"
                  + STREAMS_PREFIX
                  + "'");
        }
        continue;
      }
      String streamsKey = key.substring(STREAMS_PREFIX.length());
      if (STREAMS_KEYS_OWNED_HERE.contains(streamsKey)) {
        throw new ConfigException(
            key, entry.getValue(), "set '" + streamsKey + "' without the prefix instead");
      }
      if (FORBIDDEN_STREAMS_KEYS.contains(streamsKey)) {
        throw new ConfigException(
            key,
            entry.getValue(),
            "the router fails the task on processing and production errors instead of skipping"
                + " records; poison data goes to the DLQ by validation, not by an exception"
                + " handler");
      }
      overrides.put(streamsKey, entry.getValue());
    }
    return Map.copyOf(overrides);
  }

  private void validateCrossKeys() {
    try {
      topicNames();
    } catch (TopicSuffixException e) {
      throw new ConfigException(e.key(), e.value(), e.reason());
    }
    if (registryRetryBackoffMaxMs() < registryRetryBackoffMs()) {
      throw new ConfigException(
          REGISTRY_RETRY_BACKOFF_MAX_MS_CONFIG,
          registryRetryBackoffMaxMs(),
          "must be at least "
              + REGISTRY_RETRY_BACKOFF_MS_CONFIG
              + " ("
              + registryRetryBackoffMs()
              + ")");
    }
    long retryTimeout = registryRetryTimeoutMs();
    Object maxPoll =
        firstPresent(
            streamsOverrides,
            "main.consumer.max.poll.interval.ms",
            "consumer.max.poll.interval.ms",
            "max.poll.interval.ms");
    long maxPollMs =
        maxPoll == null ? MAX_POLL_INTERVAL_DEFAULT_MS : parseLong("max.poll.interval.ms", maxPoll);
    if (retryTimeout >= maxPollMs) {
      throw new ConfigException(
          REGISTRY_RETRY_TIMEOUT_MS_CONFIG,
          retryTimeout,
          "must be below the consumer's max.poll.interval.ms ("
              + maxPollMs
              + "), else the stream thread leaves the group while it waits for the registry");
    }
    if (exactlyOnce() && retryTimeout >= transactionTimeoutMs()) {
      throw new ConfigException(
          REGISTRY_RETRY_TIMEOUT_MS_CONFIG,
          retryTimeout,
          "must be below the producer's transaction.timeout.ms ("
              + transactionTimeoutMs()
              + "), else the transaction is aborted while a record waits for the registry");
    }
  }

  private static Object firstPresent(Map<String, Object> map, String... keys) {
    for (String key : keys) {
      if (map.containsKey(key)) {
        return map.get(key);
      }
    }
    return null;
  }

  private static long parseLong(String key, Object value) {
    try {
      return Long.parseLong(String.valueOf(value).trim());
    } catch (NumberFormatException e) {
      throw new ConfigException(STREAMS_PREFIX + key, value, "not a number");
    }
  }

  private static ConfigDef buildConfigDef() {
    ConfigDef def = new ConfigDef();
    int order = 0;
    def.define(
        BOOTSTRAP_SERVERS_CONFIG,
        Type.LIST,
        ConfigDef.NO_DEFAULT_VALUE,
        Validators.nonBlankList(),
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
    def.define(
        APPLICATION_ID_CONFIG,
        Type.STRING,
        APPLICATION_ID_DEFAULT,
        new ConfigDef.NonEmptyString(),
        Importance.HIGH,
        APPLICATION_ID_DOC,
        GROUP_CONNECTION,
        ++order,
        Width.MEDIUM,
        "Application id");
    def.define(
        PROCESSING_GUARANTEE_CONFIG,
        Type.STRING,
        "exactly_once_v2",
        ValidString.in("exactly_once_v2", "at_least_once"),
        Importance.HIGH,
        PROCESSING_GUARANTEE_DOC,
        GROUP_CONNECTION,
        ++order,
        Width.SHORT,
        "Processing guarantee");

    order = 0;
    def.define(
        INPUT_TOPIC_PATTERN_CONFIG,
        Type.STRING,
        INPUT_TOPIC_PATTERN_DEFAULT,
        Validators.regex(),
        Importance.HIGH,
        INPUT_TOPIC_PATTERN_DOC,
        GROUP_TOPICS,
        ++order,
        Width.LONG,
        "Input topic pattern");
    def.define(
        CLEAN_TOPIC_SUFFIX_CONFIG,
        Type.STRING,
        TopicNames.DEFAULT_CLEAN_SUFFIX,
        TopicNames.suffixValidator(),
        Importance.MEDIUM,
        CLEAN_TOPIC_SUFFIX_DOC,
        GROUP_TOPICS,
        ++order,
        Width.SHORT,
        "Clean topic suffix");
    def.define(
        DLQ_TOPIC_SUFFIX_CONFIG,
        Type.STRING,
        TopicNames.DEFAULT_DLQ_SUFFIX,
        TopicNames.suffixValidator(),
        Importance.MEDIUM,
        DLQ_TOPIC_SUFFIX_DOC,
        GROUP_TOPICS,
        ++order,
        Width.SHORT,
        "DLQ topic suffix");
    def.define(
        TOPIC_REFRESH_INTERVAL_MS_CONFIG,
        Type.LONG,
        5000L,
        Range.between(100L, 300_000L),
        Importance.MEDIUM,
        TOPIC_REFRESH_INTERVAL_MS_DOC,
        GROUP_TOPICS,
        ++order,
        Width.SHORT,
        "Topic refresh interval");
    def.define(
        REPLICATION_FACTOR_CONFIG,
        Type.INT,
        -1,
        Validators.replicationFactor(),
        Importance.MEDIUM,
        REPLICATION_FACTOR_DOC,
        GROUP_TOPICS,
        ++order,
        Width.SHORT,
        "Replication factor");

    order = 0;
    def.define(
        TOMBSTONES_CONFIG,
        Type.STRING,
        "pass",
        ValidString.in("pass", "drop"),
        Importance.MEDIUM,
        TOMBSTONES_DOC,
        GROUP_VALIDATION,
        ++order,
        Width.SHORT,
        "Tombstones");
    def.define(
        DLQ_FORMAT_CONFIG,
        Type.STRING,
        "envelope",
        ValidString.in("envelope", "raw"),
        Importance.MEDIUM,
        DLQ_FORMAT_DOC,
        GROUP_VALIDATION,
        ++order,
        Width.SHORT,
        "DLQ format");
    def.define(
        CONTRACT_ENABLED_CONFIG,
        Type.BOOLEAN,
        true,
        null,
        Importance.MEDIUM,
        CONTRACT_ENABLED_DOC,
        GROUP_VALIDATION,
        ++order,
        Width.SHORT,
        "Debezium contract check");
    def.define(
        CONTRACT_ALLOWED_OPS_CONFIG,
        Type.LIST,
        List.of("c", "u", "d", "r"),
        Validators.nonBlankList(),
        Importance.LOW,
        CONTRACT_ALLOWED_OPS_DOC,
        GROUP_VALIDATION,
        ++order,
        Width.SHORT,
        "Allowed ops");
    def.define(
        SCHEMA_LINEAGE_CHECK_CONFIG,
        Type.BOOLEAN,
        true,
        null,
        Importance.MEDIUM,
        SCHEMA_LINEAGE_CHECK_DOC,
        GROUP_VALIDATION,
        ++order,
        Width.SHORT,
        "Schema lineage check");
    def.define(
        VALIDATE_AHEAD_CONFIG,
        Type.STRING,
        VALIDATE_AHEAD_DEFAULT,
        CaseInsensitiveValidString.in("auto", "true", "false"),
        Importance.LOW,
        VALIDATE_AHEAD_DOC,
        GROUP_VALIDATION,
        ++order,
        Width.SHORT,
        "Validate ahead");

    order = 0;
    def.define(
        REGISTRY_RETRY_BACKOFF_MS_CONFIG,
        Type.LONG,
        100L,
        Range.atLeast(1L),
        Importance.LOW,
        REGISTRY_RETRY_BACKOFF_MS_DOC,
        GROUP_REGISTRY,
        ++order,
        Width.SHORT,
        "Registry retry backoff");
    def.define(
        REGISTRY_RETRY_BACKOFF_MAX_MS_CONFIG,
        Type.LONG,
        5000L,
        Range.atLeast(1L),
        Importance.LOW,
        REGISTRY_RETRY_BACKOFF_MAX_MS_DOC,
        GROUP_REGISTRY,
        ++order,
        Width.SHORT,
        "Registry retry backoff max");
    def.define(
        REGISTRY_RETRY_TIMEOUT_MS_CONFIG,
        Type.LONG,
        60_000L,
        Range.atLeast(0L),
        Importance.MEDIUM,
        REGISTRY_RETRY_TIMEOUT_MS_DOC,
        GROUP_REGISTRY,
        ++order,
        Width.SHORT,
        "Registry retry timeout");

    order = 0;
    def.define(
        STATE_DIR_CONFIG,
        Type.STRING,
        null,
        null,
        Importance.LOW,
        STATE_DIR_DOC,
        GROUP_RUNTIME,
        ++order,
        Width.LONG,
        "State directory");
    def.define(
        METRICS_HOST_CONFIG,
        Type.STRING,
        "127.0.0.1",
        new ConfigDef.NonEmptyString(),
        Importance.LOW,
        METRICS_HOST_DOC,
        GROUP_RUNTIME,
        ++order,
        Width.MEDIUM,
        "Metrics host");
    def.define(
        METRICS_PORT_CONFIG,
        Type.INT,
        0,
        Range.between(0, 65535),
        Importance.LOW,
        METRICS_PORT_DOC,
        GROUP_RUNTIME,
        ++order,
        Width.SHORT,
        "Metrics port");
    def.define(
        CLOSE_TIMEOUT_MS_CONFIG,
        Type.LONG,
        30_000L,
        Range.atLeast(0L),
        Importance.LOW,
        CLOSE_TIMEOUT_MS_DOC,
        GROUP_RUNTIME,
        ++order,
        Width.SHORT,
        "Close timeout");
    return def;
  }
}
