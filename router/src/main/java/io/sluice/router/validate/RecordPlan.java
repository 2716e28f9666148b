package io.sluice.router.validate;

import io.sluice.schema.avro.Capture;
import io.sluice.schema.avro.ScanCompiler;
import io.sluice.schema.avro.ScanPlan;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * What the validator needs to check records of one (value schema id, key schema id) pair, computed
 * once: the compiled value and key schemas with the capture slots the checks read, and the problems
 * that the schemas alone already decide (a value that is no Debezium envelope, key fields missing
 * from the row).
 *
 * <p>Value slots: {@link #OP}, {@link #BEFORE}, {@link #AFTER}, then one slot per key field for the
 * {@code before} image, then one per key field for the {@code after} image. For a value that is not
 * an envelope, the value record itself is the row and its key-field slots start at {@link
 * #ROW_BASE}. Key slots: one per key field.
 */
final class RecordPlan {
  static final int OP = 0;
  static final int BEFORE = 1;
  static final int AFTER = 2;
  static final int ROW_BASE = 3;

  final int valueSchemaId;
  final Schema valueSchema;
  final ScanPlan valueScan;
  final int valueSlots;

  /** False for the plan used when the key is null or not in the wire format. */
  final boolean keyed;

  final int keySchemaId;
  final ScanPlan keyScan;
  final String[] keyFields;

  /** True when the value is a Debezium envelope (op, before, after). */
  final boolean envelope;

  /** Why the value is not an envelope, when it is not. */
  final String notEnvelopeReason;

  /** Why the key can never match the row, decided from the schemas; null when it can. */
  final String keyMismatchReason;

  final int beforeBase;
  final int afterBase;

  private RecordPlan(Builder b) {
    this.valueSchemaId = b.valueSchemaId;
    this.valueSchema = b.valueSchema;
    this.valueScan = b.valueScan;
    this.valueSlots = b.valueSlots;
    this.keyed = b.keySchema != null;
    this.keySchemaId = b.keySchemaId;
    this.keyScan = b.keyScan;
    this.keyFields = b.keyFields;
    this.envelope = b.notEnvelopeReason == null;
    this.notEnvelopeReason = b.notEnvelopeReason;
    this.keyMismatchReason = b.keyMismatchReason;
    this.beforeBase = b.beforeBase;
    this.afterBase = b.afterBase;
  }

  boolean matches(int valueId, boolean keyedLookup, int keyId) {
    return valueSchemaId == valueId && keyed == keyedLookup && (!keyed || keySchemaId == keyId);
  }

  /** A plan for the value alone (null or non-Avro key). */
  static RecordPlan forValue(int valueSchemaId, Schema valueSchema) {
    return compile(valueSchemaId, valueSchema, 0, null);
  }

  /** A plan for the value and an Avro key. */
  static RecordPlan forValueAndKey(
      int valueSchemaId, Schema valueSchema, int keySchemaId, Schema keySchema) {
    return compile(valueSchemaId, valueSchema, keySchemaId, keySchema);
  }

  private static RecordPlan compile(
      int valueSchemaId, Schema valueSchema, int keySchemaId, Schema keySchema) {
    Builder b = new Builder();
    b.valueSchemaId = valueSchemaId;
    b.valueSchema = valueSchema;
    b.keySchemaId = keySchemaId;
    b.keySchema = keySchema;
    b.notEnvelopeReason = notEnvelopeReason(valueSchema);
    b.keyFields = new String[0];
    if (keySchema != null) {
      if (keySchema.getType() != Schema.Type.RECORD) {
        b.keyMismatchReason =
            "key schema is " + describe(keySchema) + ", not a record of primary-key fields";
      } else {
        b.keyFields = keySchema.getFields().stream().map(Schema.Field::name).toArray(String[]::new);
        b.keyMismatchReason =
            missingKeyField(valueSchema, b.keyFields, b.notEnvelopeReason == null);
      }
    }
    boolean comparePk = keySchema != null && b.keyMismatchReason == null;
    int pkCount = comparePk ? b.keyFields.length : 0;
    Map<String, Capture> valueCaptures = new HashMap<>();
    if (b.notEnvelopeReason == null) {
      b.beforeBase = ROW_BASE;
      b.afterBase = ROW_BASE + pkCount;
      valueCaptures.put("op", Capture.slot(OP));
      valueCaptures.put(
          "before", new Capture(BEFORE, pkCaptures(b.keyFields, pkCount, b.beforeBase)));
      valueCaptures.put("after", new Capture(AFTER, pkCaptures(b.keyFields, pkCount, b.afterBase)));
      b.valueSlots = ROW_BASE + 2 * pkCount;
    } else {
      b.beforeBase = ROW_BASE;
      b.afterBase = ROW_BASE;
      valueCaptures.putAll(pkCaptures(b.keyFields, pkCount, ROW_BASE));
      b.valueSlots = ROW_BASE + pkCount;
    }
    ScanCompiler compiler = new ScanCompiler();
    b.valueScan =
        valueSchema.getType() == Schema.Type.RECORD
            ? compiler.compile(valueSchema, valueCaptures)
            : compiler.compile(valueSchema);
    if (keySchema != null) {
      Map<String, Capture> keyCaptures = comparePk ? pkCaptures(b.keyFields, pkCount, 0) : Map.of();
      b.keyScan = new ScanCompiler().compile(keySchema, keyCaptures);
    }
    return new RecordPlan(b);
  }

  private static Map<String, Capture> pkCaptures(String[] keyFields, int count, int base) {
    Map<String, Capture> captures = new HashMap<>();
    for (int i = 0; i < count; i++) {
      captures.put(keyFields[i], Capture.slot(base + i));
    }
    return captures;
  }

  private static String notEnvelopeReason(Schema value) {
    if (value.getType() != Schema.Type.RECORD) {
      return "value schema is " + describe(value) + ", not a Debezium envelope record";
    }
    for (String field : List.of("op", "before", "after")) {
      if (value.getField(field) == null) {
        return "value schema "
            + value.getFullName()
            + " is not a Debezium envelope: it has no field '"
            + field
            + "'";
      }
    }
    if (!isOrOptional(value.getField("op").schema(), Schema.Type.STRING)) {
      return "field 'op' of " + value.getFullName() + " is not a string";
    }
    for (String image : List.of("before", "after")) {
      if (!isOrOptional(value.getField(image).schema(), Schema.Type.RECORD)) {
        return "field '" + image + "' of " + value.getFullName() + " is not a (nullable) record";
      }
    }
    return null;
  }

  private static String missingKeyField(Schema value, String[] keyFields, boolean envelope) {
    if (value.getType() != Schema.Type.RECORD) {
      return "value schema is " + describe(value) + ": no row fields to compare the key with";
    }
    List<Schema> rows =
        envelope
            ? List.of(
                recordOf(value.getField("before").schema()),
                recordOf(value.getField("after").schema()))
            : List.of(value);
    for (Schema row : rows) {
      for (String keyField : keyFields) {
        if (row.getField(keyField) == null) {
          return "key field '" + keyField + "' is not a field of row schema " + row.getFullName();
        }
      }
    }
    return null;
  }

  private static boolean isOrOptional(Schema schema, Schema.Type type) {
    if (schema.getType() == type) {
      return true;
    }
    if (schema.getType() != Schema.Type.UNION) {
      return false;
    }
    int matching = 0;
    for (Schema branch : schema.getTypes()) {
      if (branch.getType() == type) {
        matching++;
      } else if (branch.getType() != Schema.Type.NULL) {
        return false;
      }
    }
    return matching == 1;
  }

  private static Schema recordOf(Schema schema) {
    if (schema.getType() == Schema.Type.RECORD) {
      return schema;
    }
    return schema.getTypes().stream()
        .filter(s -> s.getType() == Schema.Type.RECORD)
        .findFirst()
        .orElseThrow();
  }

  private static String describe(Schema schema) {
    return switch (schema.getType()) {
      case RECORD, ENUM, FIXED -> "a " + schema.getType().getName() + " " + schema.getFullName();
      default -> "a " + schema.getType().getName();
    };
  }

  private static final class Builder {
    int valueSchemaId;
    Schema valueSchema;
    ScanPlan valueScan;
    int valueSlots;
    int keySchemaId;
    Schema keySchema;
    ScanPlan keyScan;
    String[] keyFields;
    String notEnvelopeReason;
    String keyMismatchReason;
    int beforeBase;
    int afterBase;
  }
}
