package io.sluice.connect.upsert.event;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;

/**
 * The reader schema the direct path decodes a Debezium envelope with: the writer's envelope less
 * what {@link WireChangeExtractor} never reads, so that Avro's schema resolution skips those bytes
 * instead of building objects of them. Left out: the {@code source} block but its {@code ts_ms},
 * every field an envelope has besides {@code before}, {@code after}, {@code source}, {@code op} and
 * {@code ts_ms} (Debezium's {@code transaction} block), and the {@code before} image unless the key
 * of a delete is read from it ({@code primary.key.fields}). Any schema that is not such an envelope
 * is its own reader schema. The writer's bytes are checked whole all the same, and a record the
 * direct path leaves to the converter path is decoded again, whole.
 */
final class EnvelopeProjection {
  private EnvelopeProjection() {}

  /**
   * @param keepBefore keep the {@code before} image (a delete's key is read from it)
   */
  static Schema readerSchema(Schema writer, boolean keepBefore) {
    if (writer.getType() != Schema.Type.RECORD
        || writer.getField("op") == null
        || writer.getField("after") == null) {
      return writer;
    }
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : writer.getFields()) {
      switch (field.name()) {
        case "after", "op", "ts_ms" -> fields.add(new Schema.Field(field, field.schema()));
        case "before" -> {
          if (keepBefore || !isRecord(field.schema())) {
            fields.add(new Schema.Field(field, field.schema()));
          }
        }
        case "source" -> fields.add(new Schema.Field(field, source(field.schema())));
        default -> {
          // Not read by the direct path: skipped.
        }
      }
    }
    Schema reader =
        Schema.createRecord(
            writer.getName(), writer.getDoc(), writer.getNamespace(), writer.isError(), fields);
    writer.getObjectProps().forEach(reader::addProp);
    return reader;
  }

  /** The source block with its {@code ts_ms} alone. */
  private static Schema source(Schema source) {
    if (source.getType() != Schema.Type.RECORD) {
      return source;
    }
    Schema.Field ts = source.getField("ts_ms");
    List<Schema.Field> fields = ts == null ? List.of() : List.of(new Schema.Field(ts, ts.schema()));
    return Schema.createRecord(
        source.getName(), source.getDoc(), source.getNamespace(), source.isError(), fields);
  }

  /** A record, or a union of null and a record. */
  private static boolean isRecord(Schema schema) {
    if (schema.getType() == Schema.Type.UNION) {
      return schema.getTypes().size() == 2
          && schema.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.NULL)
          && schema.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.RECORD);
    }
    return schema.getType() == Schema.Type.RECORD;
  }
}
