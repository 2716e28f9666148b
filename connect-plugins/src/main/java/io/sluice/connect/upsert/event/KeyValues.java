package io.sluice.connect.upsert.event;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/** The values of a key struct in field order, comparable by value (byte arrays by content). */
final class KeyValues {
  private KeyValues() {}

  static List<Object> of(Struct key) {
    List<Field> fields = key.schema().fields();
    List<Object> values = new ArrayList<>(fields.size());
    for (Field field : fields) {
      Object value = key.get(field);
      values.add(value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value);
    }
    return values;
  }
}
