package io.sluice.connect.upsert.event;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.record;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.connect.testing.Envelopes;
import io.sluice.connect.upsert.config.InputFormat;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class ChangeExtractorTest {
  private final ChangeExtractor debezium =
      new ChangeExtractor(InputFormat.DEBEZIUM, "__op", List.of());

  @Test
  void createReadAndUpdateUpsertTheAfterRowByTheRecordKey() {
    for (String op : List.of("c", "r", "u")) {
      ChangeEvent event =
          debezium
              .extract(record(1, 7, key(5), change(op, row(5, "old"), row(5, "new"))))
              .orElseThrow();
      assertThat(event.operation()).as(op).isEqualTo(Operation.UPSERT);
      assertThat(event.row().getString("customer")).isEqualTo("new");
      assertThat(event.key()).isEqualTo(key(5));
      assertThat(event.coordinates())
          .isEqualTo("topic broker.cdc_lab.orders.clean partition 1 offset 7");
    }
  }

  @Test
  void eventsKeepTheSourceOpAndWhenTheChangeHappened() {
    ChangeEvent read =
        debezium.extract(record(0, 1, key(1), change("r", null, row(1, "a")))).orElseThrow();
    assertThat(read.sourceOp()).isEqualTo(SourceOp.READ);
    // Envelopes' source block has no ts_ms: the envelope's own ts_ms stands in.
    assertThat(read.sourceTimeMs()).isEqualTo(1_700_000_000_000L);

    Schema source =
        SchemaBuilder.struct()
            .field("db", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .build();
    Schema envelope =
        SchemaBuilder.struct()
            .field("before", Envelopes.ROW)
            .field("after", Envelopes.ROW)
            .field("source", source)
            .field("op", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
            .build();
    Struct value =
        new Struct(envelope)
            .put("before", row(1, "a"))
            .put("source", new Struct(source).put("db", "cdc_lab").put("ts_ms", 1_600_000_000_000L))
            .put("op", "d")
            .put("ts_ms", 1_700_000_000_000L);
    ChangeEvent delete = debezium.extract(record(0, 2, key(1), value)).orElseThrow();
    assertThat(delete.sourceOp()).isEqualTo(SourceOp.DELETE);
    assertThat(delete.sourceTimeMs()).as("source.ts_ms wins").isEqualTo(1_600_000_000_000L);
  }

  @Test
  void deleteTakesTheRecordKey() {
    ChangeEvent event =
        debezium.extract(record(0, 3, key(9), change("d", row(9, "x"), null))).orElseThrow();
    assertThat(event.operation()).isEqualTo(Operation.DELETE);
    assertThat(event.key()).isEqualTo(key(9));
    assertThat(event.row()).isNull();
  }

  @Test
  void deleteWithoutARecordKeyTakesTheKeyFromTheBeforeImage() {
    ChangeExtractor byFields = new ChangeExtractor(InputFormat.DEBEZIUM, "__op", List.of("id"));
    ChangeEvent event =
        byFields.extract(record(0, 3, null, change("d", row(9, "x"), null))).orElseThrow();
    assertThat(event.operation()).isEqualTo(Operation.DELETE);
    assertThat(event.key().schema().fields()).extracting(f -> f.name()).containsExactly("id");
    assertThat(event.key().getInt32("id")).isEqualTo(9);
    assertThat(event.key().schema().isOptional()).isFalse();
  }

  @Test
  void configuredKeyFieldsAreReadFromTheAfterRow() {
    ChangeExtractor byFields =
        new ChangeExtractor(InputFormat.DEBEZIUM, "__op", List.of("customer", "id"));
    ChangeEvent event =
        byFields.extract(record(0, 1, null, change("c", null, row(4, "ann")))).orElseThrow();
    assertThat(event.key().getString("customer")).isEqualTo("ann");
    assertThat(event.key().getInt32("id")).isEqualTo(4);
  }

  @Test
  void tombstoneGivesNothing() {
    assertThat(debezium.extract(record(0, 4, key(9), null))).isEmpty();
  }

  @Test
  void unknownOpFailsNamingTheRecord() {
    assertThatThrownBy(() -> debezium.extract(record(2, 11, key(1), change("t", null, null))))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("topic broker.cdc_lab.orders.clean partition 2 offset 11")
        .hasMessageContaining("op 't' is not supported");
  }

  @Test
  void upsertWithoutAfterFails() {
    assertThatThrownBy(() -> debezium.extract(record(0, 5, key(1), change("u", row(1, "a"), null))))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("op 'u' without an 'after' row");
  }

  @Test
  void missingKeyFailsAndSaysWhatToSet() {
    assertThatThrownBy(() -> debezium.extract(record(0, 5, null, change("c", null, row(1, "a")))))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("offset 5")
        .hasMessageContaining("set primary.key.fields");
  }

  @Test
  void nullKeyFieldInTheRowFails() {
    ChangeExtractor byFields =
        new ChangeExtractor(InputFormat.DEBEZIUM, "__op", List.of("customer"));
    assertThatThrownBy(() -> byFields.extract(record(0, 6, null, change("c", null, row(1, null)))))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("primary-key field customer is null in the row");
  }

  @Test
  void nonEnvelopeValueFails() {
    Struct flat = row(1, "a");
    assertThatThrownBy(() -> debezium.extract(record(0, 8, key(1), flat)))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("no 'op' field: not a Debezium envelope");
  }

  @Test
  void flatRowsMapTheOperationField() {
    Schema schema =
        SchemaBuilder.struct()
            .field("id", Schema.INT32_SCHEMA)
            .field("__op", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    ChangeExtractor flat = new ChangeExtractor(InputFormat.FLAT, "__op", List.of());
    assertThat(flat.excludedField()).isEqualTo("__op");
    ChangeEvent insert =
        flat.extract(
                new SinkRecord(
                    "t",
                    0,
                    Envelopes.KEY,
                    key(1),
                    schema,
                    new Struct(schema).put("id", 1).put("__op", "insert"),
                    0))
            .orElseThrow();
    assertThat(insert.sourceOp()).isEqualTo(SourceOp.CREATE);
    assertThat(insert.sourceTimeMs()).isEqualTo(ChangeEvent.NO_TIME);
    assertThat(op(flat, new Struct(schema).put("id", 1).put("__op", "D")))
        .isEqualTo(Operation.DELETE);
    assertThat(op(flat, new Struct(schema).put("id", 1).put("__op", "delete")))
        .isEqualTo(Operation.DELETE);
    assertThat(op(flat, new Struct(schema).put("id", 1).put("__op", "insert")))
        .isEqualTo(Operation.UPSERT);
    assertThat(op(flat, new Struct(schema).put("id", 1).put("__op", null)))
        .isEqualTo(Operation.UPSERT);
    assertThatThrownBy(() -> op(flat, new Struct(schema).put("id", 1).put("__op", "merge")))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("operation 'merge' in field __op is unknown");
  }

  @Test
  void topicRenamingTransformsAreRefused() {
    SinkRecord renamed =
        record(0, 1, key(1), change("c", null, row(1, "a")))
            .newRecord("elsewhere", 0, null, key(1), null, change("c", null, row(1, "a")), null);
    assertThatThrownBy(() -> debezium.extract(renamed))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("topic-renaming transforms are not supported");
  }

  private static Operation op(ChangeExtractor extractor, Struct value) {
    return extractor
        .extract(
            new SinkRecord(
                "t", 0, io.sluice.connect.testing.Envelopes.KEY, key(1), value.schema(), value, 0))
        .orElseThrow()
        .operation();
  }
}
