package io.sluice.connect.upsert.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.StructLikeSet;
import org.junit.jupiter.api.Test;

class KeySetTest {
  private static final Schema LONG_KEY =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Schema INT_KEY =
      new Schema(Types.NestedField.required(1, "id", Types.IntegerType.get()));
  private static final Schema DATE_KEY =
      new Schema(Types.NestedField.required(1, "day", Types.DateType.get()));
  private static final Schema COMPOSITE_KEY =
      new Schema(
          Types.NestedField.required(1, "region", Types.StringType.get()),
          Types.NestedField.required(2, "id", Types.LongType.get()));

  @Test
  void answersAsIcebergsStructLikeSetForEveryKindOfKey() {
    for (Schema schema : new Schema[] {LONG_KEY, INT_KEY, DATE_KEY, COMPOSITE_KEY}) {
      Random random = new Random(7);
      KeySet keys = new KeySet(schema);
      StructLikeSet reference = StructLikeSet.create(schema.asStruct());
      for (int i = 0; i < 2_000; i++) {
        GenericRecord key = key(schema, random.nextInt(3_000));
        keys.add(wrap(schema, key));
        reference.add(wrap(schema, key));
      }
      assertThat(keys.size()).as("%s", schema).isEqualTo(reference.size());
      for (int i = 0; i < 6_000; i++) {
        GenericRecord probe = key(schema, i % 3_000);
        assertThat(keys.contains(wrap(schema, probe)))
            .as("%s, key %s", schema, probe)
            .isEqualTo(reference.contains(wrap(schema, probe)));
      }
    }
  }

  @Test
  void anIntKeyIsFoundByItsValue() {
    KeySet keys = new KeySet(INT_KEY);
    keys.add(wrap(INT_KEY, key(INT_KEY, 42)));
    assertThat(keys.contains(wrap(INT_KEY, key(INT_KEY, 42)))).isTrue();
    assertThat(keys.contains(wrap(INT_KEY, key(INT_KEY, 43)))).isFalse();
  }

  @Test
  void longKeysAtTheEdgesAndManySequentialOnesAreEachFoundOnce() {
    KeySet keys = new KeySet(LONG_KEY);
    long[] edges = {0L, -1L, 1L, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 32, -(1L << 32)};
    for (long edge : edges) {
      keys.add(wrap(LONG_KEY, longKey(edge)));
    }
    for (long id = 1_000; id < 201_000; id++) {
      keys.add(wrap(LONG_KEY, longKey(id)));
      keys.add(wrap(LONG_KEY, longKey(id)));
    }
    assertThat(keys.size()).isEqualTo(edges.length + 200_000);
    for (long edge : edges) {
      assertThat(keys.contains(wrap(LONG_KEY, longKey(edge)))).as("key %d", edge).isTrue();
    }
    for (long id = 1_000; id < 201_000; id += 997) {
      assertThat(keys.contains(wrap(LONG_KEY, longKey(id)))).isTrue();
      assertThat(keys.contains(wrap(LONG_KEY, longKey(id + 1_000_000)))).isFalse();
    }
    assertThat(keys.contains(wrap(LONG_KEY, longKey(2)))).isFalse();
  }

  private static GenericRecord longKey(long id) {
    GenericRecord record = GenericRecord.create(LONG_KEY);
    record.set(0, id);
    return record;
  }

  /** Key {@code n}; a composite key's region is one of two, by {@code n}. */
  private static GenericRecord key(Schema schema, int n) {
    GenericRecord record = GenericRecord.create(schema);
    switch (schema.columns().get(0).type().typeId()) {
      case LONG -> record.set(0, (long) n * 1_000_003L);
      case INTEGER -> record.set(0, n);
      case DATE -> record.set(0, java.time.LocalDate.ofEpochDay(n));
      default -> {
        record.set(0, n % 2 == 0 ? "eu" : "us");
        record.set(1, (long) (n / 2));
      }
    }
    return record;
  }

  private static org.apache.iceberg.StructLike wrap(Schema schema, GenericRecord key) {
    return new InternalRecordWrapper(schema.asStruct()).wrap(key);
  }
}
