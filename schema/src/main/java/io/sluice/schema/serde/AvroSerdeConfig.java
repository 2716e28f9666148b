package io.sluice.schema.serde;

import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/** Configuration of {@link AvroSerializer}, {@link AvroDeserializer} and {@link AvroSerde}. */
public final class AvroSerdeConfig extends AbstractConfig {
  public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";
  public static final String SCHEMA_REGISTRY_URL_DOC =
      "Base URL of the Confluent-compatible schema registry, e.g. http://127.0.0.1:8081. Required"
          + " unless the serde was built with a registry client.";

  public static final String AUTO_REGISTER_SCHEMAS_CONFIG = "auto.register.schemas";
  public static final String AUTO_REGISTER_SCHEMAS_DOC =
      "When true the serializer registers a record's schema under the subject (<topic>-key or"
          + " <topic>-value); when false it looks the schema up there and fails when it is not"
          + " registered.";

  public static final ConfigDef CONFIG_DEF =
      new ConfigDef()
          .define(
              SCHEMA_REGISTRY_URL_CONFIG,
              Type.STRING,
              null,
              Importance.HIGH,
              SCHEMA_REGISTRY_URL_DOC)
          .define(
              AUTO_REGISTER_SCHEMAS_CONFIG,
              Type.BOOLEAN,
              true,
              Importance.MEDIUM,
              AUTO_REGISTER_SCHEMAS_DOC);

  public AvroSerdeConfig(Map<String, ?> props) {
    // Kafka Streams hands every application setting to a serde: unknown keys are expected here.
    super(CONFIG_DEF, props, false);
  }

  /** The registry URL, or null when not set. */
  public String schemaRegistryUrl() {
    return getString(SCHEMA_REGISTRY_URL_CONFIG);
  }

  public boolean autoRegisterSchemas() {
    return getBoolean(AUTO_REGISTER_SCHEMAS_CONFIG);
  }
}
