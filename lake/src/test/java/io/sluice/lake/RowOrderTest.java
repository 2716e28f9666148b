package io.sluice.lake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class RowOrderTest {

  @Test
  void identifierFieldsComeFirstInTheirDeclaredOrderThenEveryColumn() {
    Schema declared =
        new Schema(
            List.of(
                Types.NestedField.required(1, "order_id", Types.LongType.get()),
                Types.NestedField.required(2, "region", Types.StringType.get()),
                Types.NestedField.optional(3, "status", Types.StringType.get())),
            new LinkedHashSet<>(List.of(2, 1)));

    List<Record> rows =
        sorted(
            declared,
            row(declared, 10L, "b", "x"),
            row(declared, 9L, "b", "x"),
            row(declared, 100L, "a", "x"),
            row(declared, 9L, "B", "z"),
            row(declared, 9L, "B", null));

    assertThat(RowOrder.identifierNames(declared)).containsExactly("region", "order_id");
    assertThat(rows)
        .extracting(RowOrderTest::describe)
        .containsExactly("B/9/null", "B/9/z", "a/100/x", "b/9/x", "b/10/x");
  }

  @Test
  void withoutIdentifierFieldsRowsSortByEveryColumnNullsFirst() {
    Schema schema =
        new Schema(
            Types.NestedField.optional(1, "seq", Types.LongType.get()),
            Types.NestedField.optional(2, "at", Types.TimestampType.withoutZone()),
            Types.NestedField.optional(3, "raw", Types.BinaryType.get()));
    LocalDateTime t = LocalDateTime.of(2026, 3, 1, 12, 0);

    List<Record> rows =
        sorted(
            schema,
            row(schema, 2L, t.plusSeconds(1), bytes(0x01)),
            row(schema, 2L, t, bytes(0xff)),
            row(schema, 2L, t, bytes(0x7f)),
            row(schema, null, t.plusDays(1), null),
            row(schema, 10L, null, null));

    assertThat(RowOrder.identifierNames(schema)).isEmpty();
    assertThat(rows)
        .extracting(r -> r.getField("seq") + "/" + IcebergRows.text(r.getField("raw")))
        .containsExactly("null/null", "2/fw==", "2//w==", "2/AQ==", "10/null");
  }

  @Test
  void anIdentifierNestedInAStructSortsByItsValue() {
    Types.StructType key =
        Types.StructType.of(Types.NestedField.required(2, "id", Types.IntegerType.get()));
    Schema schema =
        new Schema(
            List.of(
                Types.NestedField.required(1, "key", key),
                Types.NestedField.optional(3, "v", Types.StringType.get())),
            Set.of(2));
    List<Record> input = new ArrayList<>();
    for (int id : new int[] {12, 3, 7}) {
      Record k = GenericRecord.create(key);
      k.setField("id", id);
      input.add(row(schema, k, "v" + id));
    }

    assertThat(sorted(schema, input.toArray(Record[]::new)))
        .extracting(r -> r.getField("v"))
        .containsExactly("v3", "v7", "v12");
  }

  private static List<Record> sorted(Schema schema, Record... rows) {
    List<Record> list = new ArrayList<>(List.of(rows));
    list.sort(RowOrder.of(schema));
    return list;
  }

  private static Record row(Schema schema, Object... values) {
    Record r = GenericRecord.create(schema);
    for (int i = 0; i < values.length; i++) {
      r.set(i, values[i]);
    }
    return r;
  }

  private static ByteBuffer bytes(int b) {
    return ByteBuffer.wrap(new byte[] {(byte) b});
  }

  private static String describe(Record r) {
    return r.getField("region") + "/" + r.getField("order_id") + "/" + r.getField("status");
  }
}
