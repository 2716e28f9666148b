package io.sluice.tools.dlq.repair;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.dlq.DlqEnvelope;
import io.sluice.schema.Subjects;
import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.schema.registry.SchemaNotFoundException;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.registry.SubjectNotFoundException;
import io.sluice.schema.registry.VersionNotFoundException;
import io.sluice.schema.wire.WireFormat;
import io.sluice.tools.dlq.handle.KeyDecoder;
import io.sluice.tools.dlq.handle.PlannedRecord;
import io.sluice.tools.dlq.handle.Planner;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.ToIntFunction;
import org.apache.avro.Schema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The avro-reencode repair: decodes the quarantined Avro value with its own (writer) schema and
 * encodes it with a target version of {@code <topic>-value}, field by field (a field missing from
 * the writer takes its default; text holding a number becomes the number, a number text; decimals
 * keep their value). It is the repair for a record whose schema the lake cannot take, e.g. a column
 * retyped long to string and reverted: the event itself is kept (source, op, timestamps), only its
 * encoding changes. The key and the original headers are kept and the record goes back to its
 * original partition, as a replay would.
 */
public final class ReencodePlanner implements Planner {
  /** The strategy's name on the command line and in the ledger. */
  public static final String STRATEGY = "avro-reencode";

  private final SchemaRegistryClient registry;
  private final KeyDecoder keys;
  private final ToIntFunction<String> partitionCount;
  private final Integer targetVersion;

  /**
   * @param targetVersion the version of {@code <topic>-value} to encode with; null for the latest
   */
  public ReencodePlanner(
      SchemaRegistryClient registry,
      KeyDecoder keys,
      ToIntFunction<String> partitionCount,
      Integer targetVersion) {
    this.registry = registry;
    this.keys = keys;
    this.partitionCount = partitionCount;
    this.targetVersion = targetVersion;
  }

  @Override
  public PlannedRecord plan(DlqEntry entry) {
    DlqEnvelope envelope = entry.envelope();
    String topic = envelope.originalTopic();
    byte[] value = envelope.originalValue();
    if (value == null) {
      throw new RepairException(
          "the quarantined record is a tombstone; there is nothing to encode");
    }
    if (!WireFormat.hasHeader(value)) {
      throw new RepairException(
          "the quarantined value is not in the Confluent wire format; "
              + STRATEGY
              + " converts Avro records (use "
              + IntendedRowPlanner.STRATEGY
              + " for a JSON payload)");
    }
    int writerId = WireFormat.schemaId(value);
    Schema writer = writer(writerId);
    RegisteredSchema target = target(Subjects.value(topic));
    String conversion =
        "writer schema id "
            + writerId
            + " to "
            + target.subject()
            + " version "
            + target.version()
            + " (id "
            + target.id()
            + ")";
    if (target.id() == writerId) {
      throw new RepairException(
          "the record is written with "
              + target.subject()
              + " version "
              + target.version()
              + " (id "
              + writerId
              + ") already; name the version to convert it to with --target-version");
    }
    Object converted;
    try {
      JsonNode json = AvroToJson.of(AvroWire.decode(value, writer), writer, "");
      converted = JsonToAvro.value(json, target.schema(), "");
    } catch (IOException | RuntimeException e) {
      String why =
          e instanceof RepairException ? e.getMessage() : "it does not decode with its schema";
      // Avro's own messages can quote the value: keep only ours as the cause.
      throw new RepairException(
          "cannot convert from " + conversion + ": " + why,
          e instanceof RepairException ? e : null);
    }
    byte[] encoded = AvroWire.encode(target.id(), target.schema(), converted);
    int partitions = partitionCount.applyAsInt(topic);
    if (envelope.originalPartition() >= partitions) {
      throw new RepairException(
          "original partition "
              + entry.original()
              + " does not exist: "
              + topic
              + " has "
              + partitions
              + " partitions now");
    }
    RecordHeaders headers = new RecordHeaders();
    envelope.originalHeaders().forEach(h -> headers.add(h.key(), h.value()));
    headers.remove(IntendedRowPlanner.REPAIRED_FROM_HEADER);
    String from = entry.dlq() != null ? entry.dlq().toString() : "file:" + entry.original();
    headers.add(IntendedRowPlanner.REPAIRED_FROM_HEADER, from.getBytes(StandardCharsets.UTF_8));
    byte[] key = envelope.originalKey();
    return new PlannedRecord(
        LedgerEntry.Action.REPAIR,
        STRATEGY,
        new ProducerRecord<>(topic, envelope.originalPartition(), null, key, encoded, headers),
        envelope.originalPartition(),
        keys.identify(key),
        target.id(),
        "re-encoded from " + conversion);
  }

  private Schema writer(int id) {
    try {
      return registry.schemaById(id);
    } catch (SchemaNotFoundException e) {
      throw new RepairException(
          "the quarantined value's schema id " + id + " is not in the registry", e);
    }
  }

  private RegisteredSchema target(String subject) {
    try {
      return targetVersion == null
          ? registry.latest(subject)
          : registry.version(subject, targetVersion);
    } catch (SubjectNotFoundException | VersionNotFoundException e) {
      throw new RepairException(
          "subject "
              + subject
              + (targetVersion == null
                  ? " has no registered schema"
                  : " has no version " + targetVersion + " (see its versions in the registry)"),
          e);
    }
  }
}
