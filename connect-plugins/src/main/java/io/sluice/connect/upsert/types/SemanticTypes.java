package io.sluice.connect.upsert.types;

/** Names of the Connect logical types and Debezium semantic types the sink maps. */
final class SemanticTypes {
  static final String CONNECT_DECIMAL = "org.apache.kafka.connect.data.Decimal";
  static final String CONNECT_DATE = "org.apache.kafka.connect.data.Date";
  static final String CONNECT_TIME = "org.apache.kafka.connect.data.Time";
  static final String CONNECT_TIMESTAMP = "org.apache.kafka.connect.data.Timestamp";
  static final String DECIMAL_SCALE = "scale";
  static final String DECIMAL_PRECISION = "connect.decimal.precision";

  static final String DEBEZIUM_DATE = "io.debezium.time.Date";
  static final String DEBEZIUM_TIME = "io.debezium.time.Time";
  static final String DEBEZIUM_MICRO_TIME = "io.debezium.time.MicroTime";
  static final String DEBEZIUM_NANO_TIME = "io.debezium.time.NanoTime";
  static final String DEBEZIUM_TIMESTAMP = "io.debezium.time.Timestamp";
  static final String DEBEZIUM_MICRO_TIMESTAMP = "io.debezium.time.MicroTimestamp";
  static final String DEBEZIUM_NANO_TIMESTAMP = "io.debezium.time.NanoTimestamp";
  static final String DEBEZIUM_ZONED_TIMESTAMP = "io.debezium.time.ZonedTimestamp";

  /** Decimal precision when the schema does not say (the widest Iceberg allows). */
  static final int MAX_DECIMAL_PRECISION = 38;

  private SemanticTypes() {}
}
