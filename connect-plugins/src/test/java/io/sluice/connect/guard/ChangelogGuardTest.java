package io.sluice.connect.guard;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.connect.testing.Envelopes;
import io.sluice.connect.testing.Lake;
import io.sluice.contract.TopicNames;
import io.sluice.embedded.connect.ConnectorConfigs;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.connect.transforms.DebeziumTransform;
import org.apache.iceberg.connect.transforms.KafkaMetadataTransform;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.transforms.Transformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guard as {@link ConnectorConfigs#changelogSink} configures it, behind the Apache transforms
 * it follows there, on a JdbcCatalog (SQLite) holding the changelog table.
 */
class ChangelogGuardTest {
  private static final String TOPIC = "broker.cdc_lab.orders.clean";
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_changelog");

  @TempDir Path dir;
  private Lake lake;
  private final DebeziumTransform<SinkRecord> debezium = new DebeziumTransform<>();
  private final KafkaMetadataTransform kafka = new KafkaMetadataTransform();
  private final ChangelogGuard<SinkRecord> guard = new ChangelogGuard<>();

  @BeforeEach
  void configure() {
    lake = new Lake(dir);
    Map<String, String> sink =
        ConnectorConfigs.changelogSink(
            TOPIC,
            "http://registry",
            lake.catalogObject(),
            "kafka:9092",
            "control",
            1_000,
            TopicNames.DEFAULTS.dlqTopicOfRecordsIn(TOPIC));
    debezium.configure(Map.of("cdc.target.pattern", "{db}.{table}_changelog"));
    kafka.configure(Map.of("nested", "true"));
    Map<String, String> props = new HashMap<>();
    String prefix = "transforms." + ConnectorConfigs.GUARD + ".";
    sink.forEach(
        (k, v) -> {
          if (k.startsWith(prefix) && !k.equals(prefix + "type")) {
            props.put(k.substring(prefix.length()), v);
          }
        });
    guard.configure(props);
  }

  @AfterEach
  void close() throws Exception {
    guard.close();
    lake.close();
  }

  @Test
  void aRowItsTableTakesPassesUnchanged() {
    createTable();
    SinkRecord row = transformed(3, v1(1, 1999L));

    assertThat(guard.apply(row)).isSameAs(row);
  }

  @Test
  void aTypeTheColumnCannotTakeIsADataExceptionNamingWhereWhatAndTheFixNeverTheValue() {
    createTable();
    Schema v2 = row(Schema.OPTIONAL_STRING_SCHEMA);
    SinkRecord retyped = transformed(7, new Struct(v2).put("id", 2).put("amount_cents", "twelve"));

    assertThatThrownBy(() -> guard.apply(retyped))
        .isInstanceOf(DataException.class)
        .hasMessageStartingWith(
            "record broker.cdc_lab.orders.clean-0@7 cannot be written to table"
                + " cdc_lab.orders_changelog: column amount_cents is long in the table but string"
                + " in the record: Iceberg cannot change one into the other.")
        .hasMessageContaining("sluice dlq replay")
        .hasMessageContaining("--strategy avro-reencode")
        .hasMessageNotContaining("twelve");
  }

  @Test
  void recordsForATableThatDoesNotExistYetPass() {
    SinkRecord row = transformed(3, v1(1, 1999L));

    assertThat(guard.apply(row)).isSameAs(row);
  }

  @Test
  void aRecordWithoutARouteValueAndATombstonePass() {
    createTable();
    Struct noCdc = v1(1, 5L);
    SinkRecord unrouted = new SinkRecord(TOPIC, 0, null, null, noCdc.schema(), noCdc, 4);
    SinkRecord tombstone = new SinkRecord(TOPIC, 0, null, null, null, null, 5);

    assertThat(guard.apply(unrouted)).isSameAs(unrouted);
    assertThat(guard.apply(tombstone)).isSameAs(tombstone);
  }

  @Test
  void connectFindsItThroughItsServiceFileAndDocumentsEveryKey() {
    assertThat(ServiceLoader.load(Transformation.class).stream())
        .extracting(ServiceLoader.Provider::type)
        .contains(ChangelogGuard.class);
    assertThat(guard.config().configKeys().values())
        .extracting(k -> k.name)
        .containsExactly(
            "iceberg.catalog", "route.field", "schema.evolution", "table.refresh.interval.ms");
    assertThat(guard.config().configKeys().values())
        .allSatisfy(k -> assertThat(k.documentation).isNotBlank());
  }

  private void createTable() {
    ((SupportsNamespaces) lake.catalog()).createNamespace(Namespace.of("cdc_lab"));
    lake.catalog()
        .createTable(
            TABLE,
            new org.apache.iceberg.Schema(
                required(1, "id", Types.IntegerType.get()),
                optional(2, "amount_cents", Types.LongType.get())));
  }

  /** The record as the changelog sink's chain hands it to the guard. */
  private SinkRecord transformed(long offset, Struct after) {
    Struct envelope = Envelopes.change(Envelopes.envelope(after.schema()), "c", null, after);
    SinkRecord record =
        new SinkRecord(
            TOPIC,
            0,
            Envelopes.KEY,
            Envelopes.key(after.getInt32("id")),
            envelope.schema(),
            envelope,
            offset);
    return kafka.apply(debezium.apply(record));
  }

  private static Struct v1(int id, long amountCents) {
    return new Struct(row(Schema.OPTIONAL_INT64_SCHEMA))
        .put("id", id)
        .put("amount_cents", amountCents);
  }

  private static Schema row(Schema amountCents) {
    return SchemaBuilder.struct()
        .name("broker.cdc_lab.orders.Value")
        .optional()
        .field("id", Schema.INT32_SCHEMA)
        .field("amount_cents", amountCents)
        .build();
  }
}
