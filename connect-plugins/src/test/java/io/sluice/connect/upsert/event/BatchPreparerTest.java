package io.sluice.connect.upsert.event;

import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.connect.upsert.types.RecordConverter;
import io.sluice.connect.upsert.write.BatchWriter;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class BatchPreparerTest {
  // The table of Envelopes.ROW after its key widened from INT to BIGINT.
  private static final org.apache.iceberg.Schema TABLE =
      new org.apache.iceberg.Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "customer", Types.StringType.get())),
          Set.of(1));
  private static final Schema WIDE_KEY =
      SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
  private static final Schema WIDE_ROW =
      SchemaBuilder.struct()
          .optional()
          .field("id", Schema.INT64_SCHEMA)
          .field("customer", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  @Test
  void keepsTheLastEventOfEachKeyInPartitionOrder() {
    List<ChangeEvent> batch =
        prepare(
            List.of(
                upsert(0, 1, 1, "a"),
                upsert(0, 2, 2, "b"),
                upsert(0, 3, 1, "a2"),
                delete(0, 4, 2),
                upsert(0, 5, 1, "a3")));
    assertThat(batch).extracting(ChangeEvent::offset).containsExactly(4L, 5L);
    assertThat(batch.get(0).operation()).isEqualTo(Operation.DELETE);
    assertThat(batch.get(1).row().getString("customer")).isEqualTo("a3");
  }

  @Test
  void deleteThenCreateOfOneKeyIsOneUpsert() {
    List<ChangeEvent> batch =
        prepare(List.of(upsert(1, 10, 7, "x"), delete(1, 11, 7), upsert(1, 12, 7, "y")));
    assertThat(batch).hasSize(1);
    assertThat(batch.get(0).operation()).isEqualTo(Operation.UPSERT);
    assertThat(batch.get(0).row().getString("customer")).isEqualTo("y");
  }

  @Test
  void keysAreComparedByValueEvenForBytes() {
    Schema bytesKey = SchemaBuilder.struct().field("k", Schema.BYTES_SCHEMA).build();
    ChangeEvent first =
        new ChangeEvent(
            "t",
            0,
            1,
            SourceOp.DELETE,
            new Struct(bytesKey).put("k", new byte[] {1, 2}),
            null,
            ChangeEvent.NO_TIME);
    ChangeEvent second =
        new ChangeEvent(
            "t",
            0,
            2,
            SourceOp.DELETE,
            new Struct(bytesKey).put("k", new byte[] {1, 2}),
            null,
            ChangeEvent.NO_TIME);
    assertThat(prepare(List.of(first, second), BatchPreparerTest::connectKey))
        .containsExactly(second);
  }

  @Test
  void differentKeysAllStay() {
    assertThat(prepare(List.of(upsert(0, 1, 1, "a"), upsert(1, 1, 2, "b")))).hasSize(2);
  }

  @Test
  void aCompositeKeyIsTheWholeKeyNotItsFirstField() {
    Schema itemKey =
        SchemaBuilder.struct()
            .field("order_id", Schema.INT32_SCHEMA)
            .field("line_no", Schema.INT32_SCHEMA)
            .build();
    List<ChangeEvent> batch =
        prepare(
            List.of(
                item(itemKey, 1, SourceOp.CREATE, 7, 1),
                item(itemKey, 2, SourceOp.CREATE, 7, 2),
                item(itemKey, 3, SourceOp.UPDATE, 7, 2),
                item(itemKey, 4, SourceOp.DELETE, 7, 1),
                item(itemKey, 5, SourceOp.CREATE, 8, 1)),
            BatchPreparerTest::connectKey);
    // Line 2's update leaves line 1 alone, line 1's delete leaves line 2, order 8 is its own.
    assertThat(batch).extracting(ChangeEvent::offset).containsExactly(3L, 4L, 5L);
    assertThat(batch)
        .extracting(e -> e.key().get("order_id") + "/" + e.key().get("line_no"))
        .containsExactly("7/2", "7/1", "8/1");
  }

  @Test
  void aKeyWidenedWithinTheBatchIsStillOneKey() {
    // Integer 5 and Long 5 are different Connect values, one row of the table.
    ChangeEvent narrow = upsert(0, 1, 5, "before widening");
    ChangeEvent wideUpsert = wideUpsert(0, 2, 5L, "after widening");
    assertThat(prepare(List.of(narrow, wideUpsert))).containsExactly(wideUpsert);

    ChangeEvent wideDelete =
        new ChangeEvent(
            "t",
            0,
            3,
            SourceOp.DELETE,
            new Struct(WIDE_KEY).put("id", 5L),
            null,
            ChangeEvent.NO_TIME);
    assertThat(prepare(List.of(narrow, wideDelete))).containsExactly(wideDelete);
  }

  /** Dedup by the key as the table stores it, as the committer does. */
  private static List<ChangeEvent> prepare(List<ChangeEvent> events) {
    RecordConverter converter = new RecordConverter(TABLE);
    return prepare(events, e -> BatchWriter.convert(converter, e, null).tableKey());
  }

  private static List<ChangeEvent> prepare(
      List<ChangeEvent> events, Function<ChangeEvent, Object> key) {
    return BatchPreparer.prepare(events, events.stream().map(key).toList());
  }

  /** Composite and bytes keys have no table here: the Connect key's values, bytes by content. */
  private static Object connectKey(ChangeEvent e) {
    return e.key().schema().fields().stream()
        .map(f -> e.key().get(f) instanceof byte[] b ? ByteBuffer.wrap(b) : e.key().get(f))
        .toList();
  }

  private static ChangeEvent wideUpsert(int partition, long offset, long id, String customer) {
    return new ChangeEvent(
        "t",
        partition,
        offset,
        SourceOp.UPDATE,
        new Struct(WIDE_KEY).put("id", id),
        new Struct(WIDE_ROW).put("id", id).put("customer", customer),
        ChangeEvent.NO_TIME);
  }

  private static ChangeEvent item(Schema keySchema, long offset, SourceOp op, int order, int line) {
    Struct key = new Struct(keySchema).put("order_id", order).put("line_no", line);
    return new ChangeEvent("t", 0, offset, op, key, null, ChangeEvent.NO_TIME);
  }

  private static ChangeEvent upsert(int partition, long offset, int id, String customer) {
    return new ChangeEvent(
        "t", partition, offset, SourceOp.UPDATE, key(id), row(id, customer), ChangeEvent.NO_TIME);
  }

  private static ChangeEvent delete(int partition, long offset, int id) {
    return new ChangeEvent(
        "t", partition, offset, SourceOp.DELETE, key(id), null, ChangeEvent.NO_TIME);
  }
}
