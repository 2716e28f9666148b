package io.sluice.tools.dlq;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.contract.ReadyFile;
import io.sluice.tools.cli.CommandReadyFile;
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
    CommandReadyFile ready = new CommandReadyFile(readyFile, mixee.commandLine());
    String bootstrap = bootstrapServer;
    String registry = schemaRegistryUrl;
    if (bootstrap == null || registry == null) {
      JsonNode values = ready.read(bootstrap == null || registryRequired);
      bootstrap =
          bootstrap != null ? bootstrap : ReadyFile.text(values, ReadyFile.BOOTSTRAP_SERVERS);
      registry =
          registry != null ? registry : ReadyFile.text(values, ReadyFile.SCHEMA_REGISTRY_URL);
    }
    if (bootstrap == null) {
      throw ready.missing("--bootstrap-server", ReadyFile.BOOTSTRAP_SERVERS);
    }
    if (registry == null && registryRequired) {
      throw ready.missing("--schema-registry-url", ReadyFile.SCHEMA_REGISTRY_URL);
    }
    return new Endpoints(bootstrap, registry, dlqTopic);
  }
}
