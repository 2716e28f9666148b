package io.sluice.tools.dlq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The endpoint options every dlq command shares: flags, else the ready file of {@code sluice up}
 * (keys {@code bootstrap_servers}, {@code schema_registry_url}).
 */
public final class EndpointOptions {
  static final String BOOTSTRAP_SERVERS_KEY = "bootstrap_servers";
  static final String SCHEMA_REGISTRY_URL_KEY = "schema_registry_url";

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = "--bootstrap-server",
      paramLabel = "HOST:PORT",
      description = "Kafka bootstrap servers; overrides the ready file.")
  String bootstrapServer;

  @Option(
      names = "--schema-registry-url",
      paramLabel = "URL",
      description = "Schema registry base URL; overrides the ready file.")
  String schemaRegistryUrl;

  @Option(
      names = "--ready-file",
      paramLabel = "FILE",
      defaultValue = ".sluice/ready.json",
      description =
          "Ready file of `sluice up` to take the endpoints from (default: ${DEFAULT-VALUE}).")
  Path readyFile;

  @Option(
      names = "--dlq-topic",
      paramLabel = "TOPIC",
      defaultValue = "broker.cdc_lab.orders.dlq",
      description = "The router's DLQ topic (default: ${DEFAULT-VALUE}).")
  String dlqTopic;

  /**
   * The endpoints from the flags and the ready file.
   *
   * @param registryRequired fail when no registry URL is found
   * @throws ParameterException naming what is missing and where it was looked for
   */
  Endpoints resolve(boolean registryRequired) {
    String bootstrap = bootstrapServer;
    String registry = schemaRegistryUrl;
    if (bootstrap == null || registry == null) {
      JsonNode ready = readReadyFile(bootstrap == null || registryRequired);
      if (ready != null) {
        bootstrap = bootstrap != null ? bootstrap : text(ready, BOOTSTRAP_SERVERS_KEY);
        registry = registry != null ? registry : text(ready, SCHEMA_REGISTRY_URL_KEY);
      }
    }
    if (bootstrap == null) {
      throw missing("--bootstrap-server", BOOTSTRAP_SERVERS_KEY);
    }
    if (registry == null && registryRequired) {
      throw missing("--schema-registry-url", SCHEMA_REGISTRY_URL_KEY);
    }
    return new Endpoints(bootstrap, registry, dlqTopic);
  }

  private JsonNode readReadyFile(boolean needed) {
    if (!Files.exists(readyFile)) {
      return null;
    }
    try {
      JsonNode root = new ObjectMapper().readTree(readyFile.toFile());
      if (root == null || !root.isObject()) {
        throw new ParameterException(
            mixee.commandLine(),
            "ready file " + readyFile.toAbsolutePath() + " is not a JSON object");
      }
      return root;
    } catch (IOException e) {
      if (!needed) {
        return null;
      }
      throw new ParameterException(
          mixee.commandLine(),
          "cannot read ready file " + readyFile.toAbsolutePath() + ": " + e.getMessage());
    }
  }

  private ParameterException missing(String flag, String key) {
    String where =
        Files.exists(readyFile)
            ? "ready file " + readyFile.toAbsolutePath() + " has no " + key
            : "there is no ready file at " + readyFile.toAbsolutePath();
    return new ParameterException(
        mixee.commandLine(),
        "no "
            + flag
            + " given and "
            + where
            + "; pass "
            + flag
            + ", or start the stack with `scripts/sluice up` (or point --ready-file at its file)");
  }

  private static String text(JsonNode root, String key) {
    JsonNode value = root.get(key);
    return value == null || value.isNull() || value.asText().isBlank() ? null : value.asText();
  }
}
