package io.sluice.connect.upsert.index;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A table key as the index stores it. A key of one column whose values Iceberg holds as an int or a
 * long (int, long, date, time, timestamp) is that long; any other key is the bytes of its columns
 * in Iceberg's single-value serialization, each preceded by a null flag and its length, so two keys
 * are equal exactly when their encodings are. Values are Iceberg's internal ones (wrap generic
 * records with {@code InternalRecordWrapper}).
 */
final class KeyEncoder {
  private final List<Type> types;
  private final boolean longKey;

  KeyEncoder(Schema keySchema) {
    this.types = keySchema.columns().stream().map(Types.NestedField::type).toList();
    this.longKey = types.size() == 1 && isLongLike(types.get(0));
  }

  /** Whether keys are longs ({@link #asLong}) rather than bytes ({@link #asBytes}). */
  boolean longKeys() {
    return longKey;
  }

  /**
   * @throws IllegalArgumentException when the key column is null (no key of the table is)
   */
  long asLong(StructLike key) {
    Object value = key.get(0, Object.class);
    if (value == null) {
      throw new IllegalArgumentException("a key column is null");
    }
    return ((Number) value).longValue();
  }

  byte[] asBytes(StructLike key) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * types.size());
    for (int i = 0; i < types.size(); i++) {
      Object value = key.get(i, Object.class);
      if (value == null) {
        out.write(0);
        continue;
      }
      if (value instanceof byte[] bytes) {
        value = ByteBuffer.wrap(bytes);
      }
      ByteBuffer buffer = Conversions.toByteBuffer(types.get(i), value);
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      out.write(1);
      writeLength(out, bytes.length);
      out.write(bytes, 0, bytes.length);
    }
    return out.toByteArray();
  }

  private static void writeLength(ByteArrayOutputStream out, int length) {
    while ((length & ~0x7F) != 0) {
      out.write((length & 0x7F) | 0x80);
      length >>>= 7;
    }
    out.write(length);
  }

  private static boolean isLongLike(Type type) {
    return switch (type.typeId()) {
      case INTEGER, LONG, DATE, TIME, TIMESTAMP, TIMESTAMP_NANO -> true;
      default -> false;
    };
  }
}
