package io.sluice.tools.dlq;

import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.kafka.KafkaClients;
import io.sluice.tools.dlq.kafka.TopicScanner;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.record.DlqEntry;
import io.sluice.tools.dlq.record.DlqRecords;
import io.sluice.tools.dlq.repair.RepairException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** The clients one dlq command uses, opened from its endpoints and closed when it ends. */
final class ToolSession implements AutoCloseable {
  private final Endpoints endpoints;
  private final KafkaClients kafka;
  private final TopicScanner scanner;
  private final SchemaRegistryClient registry;
  private final Clock clock;
  private String dlqTopic;

  private ToolSession(ToolContext context, Endpoints endpoints) {
    this.endpoints = endpoints;
    this.kafka = context.kafka(endpoints.bootstrapServers());
    this.scanner = new TopicScanner(kafka.consumer());
    this.registry =
        endpoints.schemaRegistryUrl() == null
            ? null
            : context.registry(endpoints.schemaRegistryUrl());
    this.clock = context.clock();
  }

  static ToolSession open(ToolContext context, Endpoints endpoints) {
    return new ToolSession(context, endpoints);
  }

  Endpoints endpoints() {
    return endpoints;
  }

  KafkaClients kafka() {
    return kafka;
  }

  TopicScanner scanner() {
    return scanner;
  }

  /** The registry, or null when no URL was given. */
  SchemaRegistryClient registry() {
    return registry;
  }

  Clock clock() {
    return clock;
  }

  /**
   * Chooses the DLQ topic the command acts on ({@link DlqTopicChoice}); empty when nothing chooses
   * one.
   *
   * @param impliedTopic the topic the command implies (of its record id or envelope file), or null
   * @throws ParameterException when {@code --table} names no DLQ topic or several
   */
  Optional<String> chooseDlqTopic(String impliedTopic, CommandLine commandLine) {
    try {
      Optional<String> chosen =
          endpoints.dlq().chosen(impliedTopic, () -> scanner.topics().keySet());
      chosen.ifPresent(topic -> dlqTopic = topic);
      return chosen;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(commandLine, e.getMessage(), e);
    }
  }

  /**
   * {@link #chooseDlqTopic}, for a command that needs one.
   *
   * @throws ParameterException when none is chosen, naming the DLQ topics there are
   */
  String requireDlqTopic(String impliedTopic, CommandLine commandLine) {
    return chooseDlqTopic(impliedTopic, commandLine)
        .orElseThrow(
            () ->
                new ParameterException(
                    commandLine,
                    endpoints
                        .dlq()
                        .noneChosen(
                            commandLine.getCommandSpec().qualifiedName(),
                            scanner.topics().keySet(),
                            endpoints.bootstrapServers())));
  }

  /** The chosen DLQ topic. */
  String dlqTopic() {
    if (dlqTopic == null) {
      throw new IllegalStateException("no DLQ topic chosen yet");
    }
    return dlqTopic;
  }

  /** The ledger of the chosen DLQ topic: {@code <dlq topic><repairs suffix>}. */
  String ledgerTopic() {
    return endpoints.dlq().names().repairsTopicOfDlq(dlqTopic());
  }

  /** Every record of the chosen DLQ topic. */
  List<DlqEntry> dlqEntries() {
    return entriesOf(dlqTopic());
  }

  /** Every record of {@code dlqTopic}. */
  List<DlqEntry> entriesOf(String dlqTopic) {
    return DlqRecords.readTopic(scanner, dlqTopic);
  }

  /** The ledger of the chosen DLQ topic as it is now (empty when its topic does not exist yet). */
  Ledger readLedger() {
    return ledgerOf(dlqTopic());
  }

  /** The ledger of {@code dlqTopic} as it is now. */
  Ledger ledgerOf(String dlqTopic) {
    return Ledger.read(scanner, endpoints.dlq().names().repairsTopicOfDlq(dlqTopic));
  }

  /** Original coordinates of every readable entry. */
  static List<Coordinates> originals(List<DlqEntry> entries) {
    List<Coordinates> originals = new ArrayList<>();
    entries.stream().filter(DlqEntry::readable).forEach(e -> originals.add(e.original()));
    return originals;
  }

  /**
   * The partition count of {@code topic}.
   *
   * @throws RepairException when the topic does not exist
   */
  int partitionCount(String topic) {
    int count = scanner.partitions(topic).size();
    if (count == 0) {
      throw new RepairException(
          "topic " + topic + " does not exist on " + endpoints.bootstrapServers());
    }
    return count;
  }

  @Override
  public void close() {
    scanner.close();
  }
}
