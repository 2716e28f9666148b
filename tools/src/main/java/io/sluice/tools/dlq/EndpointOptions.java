package io.sluice.tools.dlq;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.contract.ReadyFile;
import io.sluice.tools.cli.CommandReadyFile;
import io.sluice.tools.cli.TopicSuffixOptions;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options every dlq command shares: the endpoints, from flags, else the ready file of {@code
 * sluice up} (keys {@code bootstrap_servers}, {@code schema_registry_url}); the router's topic
 * suffixes ({@link TopicSuffixOptions}); and which DLQ topic to act on ({@link DlqTopicChoice}).
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
          "Ready file of `sluice up` to take the endpoints and the topic suffixes from (default:"
              + " ${DEFAULT-VALUE}).")
  Path readyFile;

  @Option(
      names = "--dlq-topic",
      paramLabel = "TOPIC",
      description =
          "The DLQ topic to act on. Without it (and without --table) `list` lists the DLQ topics"
              + " there are, and the others take the topic an id names.")
  String dlqTopic;

  @Option(
      names = "--table",
      paramLabel = "DB.TABLE|TOPIC",
      description =
          "Act on the DLQ topic of this table (the DLQ topic whose input topic ends with"
              + " .DB.TABLE) or input topic: <input><dlq suffix>.")
  String table;

  @Mixin TopicSuffixOptions suffixes;

  /**
   * The endpoints from the flags and the ready file.
   *
   * @param registryRequired fail when no registry URL is found
   * @throws ParameterException naming what is missing and where it was looked for
   */
  Endpoints resolve(boolean registryRequired) {
    if (dlqTopic != null && table != null) {
      throw new ParameterException(
          mixee.commandLine(), "--dlq-topic and --table both choose the DLQ topic: give one");
    }
    CommandReadyFile ready = new CommandReadyFile(readyFile, mixee.commandLine());
    String bootstrap = bootstrapServer;
    String registry = schemaRegistryUrl;
    JsonNode values = ready.read(bootstrap == null || (registry == null && registryRequired));
    bootstrap = bootstrap != null ? bootstrap : ReadyFile.text(values, ReadyFile.BOOTSTRAP_SERVERS);
    registry = registry != null ? registry : ReadyFile.text(values, ReadyFile.SCHEMA_REGISTRY_URL);
    if (bootstrap == null) {
      throw ready.missing("--bootstrap-server", ReadyFile.BOOTSTRAP_SERVERS);
    }
    if (registry == null && registryRequired) {
      throw ready.missing("--schema-registry-url", ReadyFile.SCHEMA_REGISTRY_URL);
    }
    return new Endpoints(
        bootstrap,
        registry,
        new DlqTopicChoice(suffixes.resolve(ready, values, mixee.commandLine()), dlqTopic, table));
  }
}
