package io.sluice.tools.dlq.repair;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.dlq.DlqEnvelope;
import io.sluice.schema.Subjects;
import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.registry.SubjectNotFoundException;
import io.sluice.schema.registry.VersionNotFoundException;
import io.sluice.tools.dlq.handle.KeyDecoder;
import io.sluice.tools.dlq.handle.PlannedRecord;
import io.sluice.tools.dlq.handle.Planner;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqEntry;
import java.nio.charset.StandardCharsets;
import java.util.function.ToIntFunction;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The json-intended-row repair: decodes the payload to the intended row, builds the Debezium event
 * with the latest registered value schema of the original topic ({@code <topic>-value}), builds the
 * key from the row's primary-key fields with the latest {@code <topic>-key} schema, and produces it
 * keyed, without an explicit partition, so it lands in the key's partition as a captured event
 * would.
 */
public final class IntendedRowPlanner implements Planner {
  /** The strategy's name on the command line and in the ledger. */
  public static final String STRATEGY = "json-intended-row";

  /** Header on repaired records naming the DLQ record they repair. */
  public static final String REPAIRED_FROM_HEADER = "sluice.repair.from";

  private final SchemaRegistryClient registry;
  private final DebeziumEnvelopeBuilder events;
  private final ToIntFunction<String> partitionCount;

  public IntendedRowPlanner(
      SchemaRegistryClient registry,
      DebeziumEnvelopeBuilder events,
      ToIntFunction<String> partitionCount) {
    this.registry = registry;
    this.events = events;
    this.partitionCount = partitionCount;
  }

  @Override
  public PlannedRecord plan(DlqEntry entry) {
    DlqEnvelope envelope = entry.envelope();
    String topic = envelope.originalTopic();
    IntendedRow intended = IntendedRow.parse(envelope.originalValue());
    RegisteredSchema valueSchema = latest(Subjects.value(topic));
    RegisteredSchema keySchema = latest(Subjects.key(topic));
    GenericRecord event;
    GenericRecord key;
    try {
      event = events.build(valueSchema.schema(), topic, intended);
      key = key(keySchema.schema(), intended.row());
    } catch (RepairException e) {
      throw new RepairException(
          e.getMessage()
              + " (value schema "
              + valueSchema.subject()
              + " version "
              + valueSchema.version()
              + ", id "
              + valueSchema.id()
              + "; key schema id "
              + keySchema.id()
              + ")",
          e);
    }
    byte[] keyBytes = AvroWire.encode(keySchema.id(), keySchema.schema(), key);
    byte[] valueBytes = AvroWire.encode(valueSchema.id(), valueSchema.schema(), event);
    RecordHeaders headers = new RecordHeaders();
    String from = entry.dlq() != null ? entry.dlq().toString() : "file:" + entry.original();
    headers.add(REPAIRED_FROM_HEADER, from.getBytes(StandardCharsets.UTF_8));
    int partition = BuiltInPartitioner.partitionForKey(keyBytes, partitionCount.applyAsInt(topic));
    return new PlannedRecord(
        LedgerEntry.Action.REPAIR,
        STRATEGY,
        new ProducerRecord<>(topic, null, null, keyBytes, valueBytes, headers),
        partition,
        KeyDecoder.identify(key, keyBytes),
        valueSchema.id(),
        "op " + intended.operation() + ", key schema id " + keySchema.id());
  }

  private static GenericRecord key(Schema keySchema, JsonNode row) {
    if (keySchema.getType() != Schema.Type.RECORD) {
      throw new RepairException(
          "the key schema is " + JsonToAvro.describe(keySchema) + ", not a record of key fields");
    }
    GenericRecord key = new GenericData.Record(keySchema);
    for (Schema.Field field : keySchema.getFields()) {
      JsonNode value = row.get(field.name());
      if (value == null || value.isNull()) {
        throw new RepairException(
            "primary-key field '" + field.name() + "' of the key schema is missing from the row");
      }
      key.put(field.pos(), JsonToAvro.value(value, field.schema(), field.name()));
    }
    return key;
  }

  private RegisteredSchema latest(String subject) {
    try {
      return registry.latest(subject);
    } catch (SubjectNotFoundException | VersionNotFoundException e) {
      throw new RepairException(
          "subject "
              + subject
              + " has no registered schema; a repair encodes with the topic's registered schemas"
              + " (register them, or check the topic name)",
          e);
    }
  }
}
