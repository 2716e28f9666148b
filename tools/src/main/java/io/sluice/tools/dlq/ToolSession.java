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

/** The clients one dlq command uses, opened from its endpoints and closed when it ends. */
final class ToolSession implements AutoCloseable {
  private final Endpoints endpoints;
  private final KafkaClients kafka;
  private final TopicScanner scanner;
  private final SchemaRegistryClient registry;
  private final Clock clock;

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

  String ledgerTopic() {
    return Ledger.topicFor(endpoints.dlqTopic());
  }

  /** Every record of the DLQ topic. */
  List<DlqEntry> dlqEntries() {
    return DlqRecords.readTopic(scanner, endpoints.dlqTopic());
  }

  /** The ledger as it is now (empty when its topic does not exist yet). */
  Ledger readLedger() {
    return Ledger.read(scanner, ledgerTopic());
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
