package io.sluice.lab.verify.sinkpoison;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.lab.verify.ScenarioFailure;
import io.sluice.tools.dlq.repair.AvroWire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Base64;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * The row a retyped change event meant to write, as the JSON the repair strategy {@code
 * json-intended-row} reads: the event is decoded with its own (writer) schema, its {@code after}
 * image taken, and the retyped field turned back into the long the lake holds.
 */
final class IntendedRowDecoder {
  private static final ObjectMapper JSON = new ObjectMapper();

  private IntendedRowDecoder() {}

  /**
   * {@code {"intended_after": {...}, "intended_operation": op}} of {@code value}.
   *
   * @param value the event in the wire format, written with {@code writer}
   * @param retypedField the field to turn back into a long
   * @throws ScenarioFailure when the event does not decode, has no {@code after} image, or the
   *     field is no number
   */
  static byte[] intendedPayload(byte[] value, Schema writer, String retypedField) {
    GenericRecord event;
    try {
      event = (GenericRecord) AvroWire.decode(value, writer);
    } catch (IOException | RuntimeException e) {
      throw new ScenarioFailure(
          "the retyped event does not decode with its writer schema "
              + writer.getFullName()
              + " ("
              + e.getClass().getSimpleName()
              + ")");
    }
    if (!(event.get("after") instanceof GenericRecord after)) {
      throw new ScenarioFailure("the retyped event has no 'after' image");
    }
    ObjectNode row = JSON.createObjectNode();
    for (Schema.Field field : after.getSchema().getFields()) {
      Object v = after.get(field.pos());
      if (field.name().equals(retypedField)) {
        row.put(field.name(), asLong(v, retypedField));
      } else {
        put(row, field.name(), v);
      }
    }
    ObjectNode payload = JSON.createObjectNode();
    payload.set("intended_after", row);
    payload.put("intended_operation", String.valueOf(event.get("op")));
    try {
      return JSON.writeValueAsBytes(payload);
    } catch (IOException e) {
      throw new ScenarioFailure("cannot write the intended row as JSON", e);
    }
  }

  private static long asLong(Object v, String field) {
    try {
      return Long.parseLong(String.valueOf(v).strip());
    } catch (NumberFormatException e) {
      throw new ScenarioFailure(
          "field " + field + " of the retyped event holds no whole number; cannot turn it back");
    }
  }

  private static void put(ObjectNode row, String name, Object v) {
    if (v == null) {
      row.putNull(name);
    } else if (v instanceof Long l) {
      row.put(name, l);
    } else if (v instanceof Integer i) {
      row.put(name, i);
    } else if (v instanceof Boolean b) {
      row.put(name, b);
    } else if (v instanceof Double d) {
      row.put(name, d);
    } else if (v instanceof Float f) {
      row.put(name, f);
    } else if (v instanceof ByteBuffer bytes) {
      byte[] copy = new byte[bytes.remaining()];
      bytes.duplicate().get(copy);
      row.put(name, Base64.getEncoder().encodeToString(copy));
    } else {
      row.put(name, v.toString());
    }
  }
}
