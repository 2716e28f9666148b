package io.sluice.schema.serde;

import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.registry.SchemaRegistryClient;
import org.apache.kafka.common.config.ConfigException;

/** The registry client a serde uses: the one it was built with, or one from its config. */
final class RegistryClients {
  private RegistryClients() {}

  static SchemaRegistryClient resolve(SchemaRegistryClient given, AvroSerdeConfig config) {
    if (given != null) {
      return given;
    }
    String url = config.schemaRegistryUrl();
    if (url == null || url.isBlank()) {
      throw new ConfigException(
          AvroSerdeConfig.SCHEMA_REGISTRY_URL_CONFIG,
          url,
          "required: the base URL of the schema registry");
    }
    try {
      return HttpSchemaRegistryClient.create(url);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(AvroSerdeConfig.SCHEMA_REGISTRY_URL_CONFIG, url, e.getMessage());
    }
  }
}
