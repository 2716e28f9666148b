package io.sluice.tools.dlq.testing;

import io.sluice.dlq.DlqFormat;
import io.sluice.dlq.DlqRecordBuilder;
import io.sluice.dlq.Rejection;
import io.sluice.schema.Subjects;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.testing.InMemorySchemaRegistryClient;
import io.sluice.schema.wire.WireFormatException;
import io.sluice.tools.dlq.DlqCommand;
import io.sluice.tools.dlq.ToolContext;
import io.sluice.tools.dlq.kafka.KafkaClients;
import io.sluice.tools.dlq.repair.AvroWire;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.header.internals.RecordHeaders;
import picocli.CommandLine;

/**
 * The orders topic, its DLQ and registry in memory, with poison written the way the router writes
 * it, and the dlq commands run against them.
 */
public final class OrdersStack {
  public static final String TOPIC = TestSchemas.TOPIC;
  public static final String CLEAN = TOPIC + ".clean";
  public static final String DLQ = TOPIC + ".dlq";
  public static final String LEDGER = DLQ + ".repairs";
  public static final int PARTITIONS = 3;
  public static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  public final InMemoryKafka kafka = new InMemoryKafka();
  public final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
  public final int keySchemaId;
  public final int valueSchemaId;
  private final DlqRecordBuilder dlq =
      new DlqRecordBuilder(
          DlqFormat.ENVELOPE, "sluice-router", Clock.fixed(NOW.minusSeconds(90), ZoneOffset.UTC));

  public OrdersStack() {
    kafka.createTopic(TOPIC, PARTITIONS);
    kafka.createTopic(CLEAN, PARTITIONS);
    kafka.createTopic(DLQ, PARTITIONS);
    keySchemaId = registry.register(Subjects.key(TOPIC), TestSchemas.ordersKey());
    valueSchemaId = registry.register(Subjects.value(TOPIC), TestSchemas.ordersEnvelope());
  }

  /** The wire bytes of the key of {@code orderId}. */
  public byte[] key(long orderId) {
    GenericRecord key = new GenericData.Record(TestSchemas.ordersKey());
    key.put("order_id", orderId);
    return AvroWire.encode(keySchemaId, TestSchemas.ordersKey(), key);
  }

  /** The partition a keyed producer puts {@code orderId} in. */
  public int partitionOf(long orderId) {
    return BuiltInPartitioner.partitionForKey(key(orderId), PARTITIONS);
  }

  /** A valid Avro change event for {@code orderId} on the main topic; returns its offset. */
  public long validEvent(long orderId) {
    byte[] value = event(TestSchemas.ordersEnvelope(), valueSchemaId, orderId, 100L);
    return kafka.append(TOPIC, partitionOf(orderId), key(orderId), value, null);
  }

  /**
   * The wire bytes of an update event of {@code orderId} written with {@code envelope} (id {@code
   * schemaId}), its {@code amount_cents} set to {@code amountCents} (a long, or a string when the
   * envelope retyped it).
   */
  public static byte[] event(Schema envelope, int schemaId, long orderId, Object amountCents) {
    Schema row = envelope.getField("after").schema().getTypes().get(1);
    GenericRecord after = new GenericData.Record(row);
    after.put("order_id", orderId);
    after.put("customer", "c" + orderId);
    after.put("amount_cents", amountCents);
    after.put("status", "NEW");
    after.put("updated_at", NOW.toEpochMilli());
    Schema sourceSchema = envelope.getField("source").schema();
    GenericRecord source = new GenericData.Record(sourceSchema);
    source.put("version", "3.5.0.Final");
    source.put("connector", "mariadb");
    source.put("name", "test");
    source.put("ts_ms", NOW.toEpochMilli());
    source.put("db", "shop");
    source.put("table", "orders");
    source.put("server_id", 1L);
    source.put("file", "mysql-bin.000001");
    source.put("pos", 4L);
    source.put("row", 0);
    GenericRecord event = new GenericData.Record(envelope);
    event.put("after", after);
    event.put("source", source);
    event.put("op", "u");
    return AvroWire.encode(schemaId, envelope, event);
  }

  /**
   * A non-Avro poison record (its JSON payload) keyed by {@code orderId} on the main topic, and its
   * DLQ record as the router writes it (same partition). Returns the DLQ offset.
   */
  public long poison(long orderId, String json) {
    Rejection poison =
        new Rejection(
            "NOT_AVRO_WIRE_FORMAT",
            WireFormatException.class.getName(),
            "value of topic " + TOPIC + " is not in the Confluent wire format",
            null,
            keySchemaId);
    return quarantined(orderId, json.getBytes(StandardCharsets.UTF_8), poison);
  }

  /**
   * {@code value} keyed by {@code orderId} on the main topic, and its DLQ record with {@code
   * rejection} as the router writes it (same partition). Returns the DLQ offset.
   */
  public long quarantined(long orderId, byte[] value, Rejection rejection) {
    int partition = partitionOf(orderId);
    RecordHeaders headers = new RecordHeaders();
    headers.add("trace", "t-1".getBytes(StandardCharsets.UTF_8));
    long offset = kafka.append(TOPIC, partition, key(orderId), value, headers);
    DlqRecordBuilder.Original original =
        new DlqRecordBuilder.Original(
            TOPIC,
            partition,
            offset,
            NOW.minusSeconds(100).toEpochMilli(),
            key(orderId),
            value,
            headers);
    return kafka.append(
        DLQ,
        partition,
        key(orderId),
        dlq.value(original, rejection),
        dlq.headers(original, rejection));
  }

  /**
   * {@code value} keyed by {@code orderId} on the clean topic, as the router passes it on to the
   * sinks; returns its offset (in the key's partition).
   */
  public long cleanRecord(long orderId, byte[] value) {
    RecordHeaders headers = new RecordHeaders();
    headers.add("trace", "t-1".getBytes(StandardCharsets.UTF_8));
    return kafka.append(CLEAN, partitionOf(orderId), key(orderId), value, headers);
  }

  /**
   * The DLQ record task {@code task} of sink {@code connector} writes, at {@code quarantinedAt},
   * for the clean record of {@code orderId} at {@code cleanOffset} it could not write
   * (SINK_DECIMAL_OUT_OF_RANGE), in the key's partition as the sink's producer puts it. A zombie
   * task and its successor each call it for the same input. Returns the DLQ offset.
   */
  public long sinkQuarantined(
      long orderId, long cleanOffset, String connector, int task, Instant quarantinedAt) {
    int partition = partitionOf(orderId);
    var input = kafka.records(CLEAN, partition).get((int) cleanOffset);
    DlqRecordBuilder.Original original =
        new DlqRecordBuilder.Original(
            CLEAN,
            partition,
            cleanOffset,
            input.timestamp(),
            input.key(),
            input.value(),
            input.headers());
    DlqRecordBuilder sink =
        DlqRecordBuilder.forSink(
            new DlqRecordBuilder.SinkTask(connector, task, "io.sluice.connect.UpsertSinkTask"),
            Clock.fixed(quarantinedAt, ZoneOffset.UTC));
    Rejection rejection =
        new Rejection(
            "SINK_DECIMAL_OUT_OF_RANGE",
            "io.sluice.connect.upsert.quarantine.RecordRejectedException",
            "column amount_cents does not fit its column",
            valueSchemaId,
            keySchemaId);
    return kafka.append(
        DLQ,
        partition,
        input.key(),
        sink.value(original, rejection, "shop.orders_current"),
        sink.headers(original, rejection));
  }

  /** The JSON wrapper of an intended row of {@code orderId}. */
  public static String intended(long orderId, String op) {
    return "{\"intended_after\":{\"order_id\":"
        + orderId
        + ",\"customer\":\"ada\",\"amount_cents\":1250,\"updated_at\":\"2026-03-01 10:15:30.250\"},"
        + "\"intended_operation\":\""
        + op
        + "\",\"repair_format\":\"test-v1\"}";
  }

  /** What a command printed and returned. */
  public record Run(int exitCode, String out, String err) {}

  /** Runs {@code sluice dlq <args>} against this stack. */
  public Run dlq(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(
        List.of(
            "--bootstrap-server", "in-memory:9092",
            "--schema-registry-url", "http://in-memory",
            "--dlq-topic", DLQ,
            "--ready-file", "/nonexistent/ready.json"));
    return run(context(), all.toArray(String[]::new));
  }

  /**
   * Runs {@code sluice dlq <args>} with the endpoints of {@link #dlq} but no DLQ topic: the command
   * chooses one itself, or fails.
   */
  public Run dlqWithoutTopic(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(
        List.of(
            "--bootstrap-server", "in-memory:9092",
            "--schema-registry-url", "http://in-memory",
            "--ready-file", "/nonexistent/ready.json"));
    return run(context(), all.toArray(String[]::new));
  }

  /** Runs {@code sluice dlq <args>} exactly as given. */
  public static Run run(ToolContext context, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new DlqCommand(context));
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          commandLine.getErr().println("ERROR: " + e.getMessage());
          return 1;
        });
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  public ToolContext context() {
    return new ToolContext() {
      @Override
      public KafkaClients kafka(String bootstrapServers) {
        return kafka;
      }

      @Override
      public SchemaRegistryClient registry(String url) {
        return registry;
      }

      @Override
      public Clock clock() {
        return Clock.fixed(NOW, ZoneOffset.UTC);
      }
    };
  }
}
