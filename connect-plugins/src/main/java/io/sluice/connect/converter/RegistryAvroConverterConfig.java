package io.sluice.connect.converter;

import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/** Settings of {@link RegistryAvroConverter}, given as {@code key.converter.*}/{@code value...}. */
public final class RegistryAvroConverterConfig extends AbstractConfig {
  public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";
  public static final String SCHEMA_REGISTRY_URL_DOC =
      "Base URL of the Confluent-compatible schema registry (subjects by TopicNameStrategy:"
          + " `<topic>-key`, `<topic>-value`).";

  public static final String AUTO_REGISTER_SCHEMAS_CONFIG = "auto.register.schemas";
  public static final String AUTO_REGISTER_SCHEMAS_DOC =
      "When writing, register a new schema under the topic's subject; when false the schema must"
          + " already be registered there, else the record fails.";

  private static final ConfigDef CONFIG_DEF =
      new ConfigDef()
          .define(
              SCHEMA_REGISTRY_URL_CONFIG,
              Type.STRING,
              ConfigDef.NO_DEFAULT_VALUE,
              new ConfigDef.NonEmptyString(),
              Importance.HIGH,
              SCHEMA_REGISTRY_URL_DOC)
          .define(
              AUTO_REGISTER_SCHEMAS_CONFIG,
              Type.BOOLEAN,
              true,
              Importance.MEDIUM,
              AUTO_REGISTER_SCHEMAS_DOC);

  public RegistryAvroConverterConfig(Map<?, ?> props) {
    super(CONFIG_DEF, props, false);
  }

  public static ConfigDef configDef() {
    return new ConfigDef(CONFIG_DEF);
  }

  public String schemaRegistryUrl() {
    return getString(SCHEMA_REGISTRY_URL_CONFIG);
  }

  public boolean autoRegisterSchemas() {
    return getBoolean(AUTO_REGISTER_SCHEMAS_CONFIG);
  }
}
