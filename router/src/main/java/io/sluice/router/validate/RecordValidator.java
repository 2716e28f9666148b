package io.sluice.router.validate;

import io.sluice.router.lineage.Refusal;
import io.sluice.router.lineage.SchemaLineage;
import io.sluice.schema.avro.AvroDecodeException;
import io.sluice.schema.avro.AvroScanner;
import io.sluice.schema.avro.Captures;
import io.sluice.schema.registry.RegistryUnavailableException;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.wire.WireFormat;
import org.apache.avro.Schema;

/**
 * Runs the validation stages (docs/design.md#validation-stages-and-error-codes) on one record,
 * first failure wins: tombstone, value wire format, schema id known, id in the topic's value
 * subject, the lake can follow the schema (lineage), value decodes completely; then the same for
 * the key (when there is one), key fields equal to the row's primary-key fields; then the Debezium
 * contract.
 *
 * <p>The hot path builds no Avro objects and allocates nothing for a valid record: after the first
 * record of a (value id, key id) pair it is one cache lookup and a scan of the bytes ({@link
 * AvroScanner}) into capture slots that each thread reuses. Thread-safe; {@link #forTopic} gives a
 * single-threaded caller a validator without the per-record lookups.
 */
public final class RecordValidator {
  private final SchemaLookup lookup;
  private final DebeziumContract contract;
  private final boolean contractEnabled;
  private final SchemaLineage lineage;
  private final PlanCache plans = new PlanCache();
  private final ThreadLocal<CaptureSlots> threadSlots = ThreadLocal.withInitial(CaptureSlots::new);

  /** A validator with the default rules (contract on, ops c/u/d/r). */
  public RecordValidator(SchemaRegistryClient registry) {
    this(registry, ValidationRules.defaults());
  }

  public RecordValidator(SchemaRegistryClient registry, ValidationRules rules) {
    this.lookup = new SchemaLookup(registry);
    this.contract = new DebeziumContract(rules);
    this.contractEnabled = rules.contractEnabled();
    this.lineage = rules.lineageChecked() ? new SchemaLineage(registry) : null;
  }

  /**
   * Validates one record of {@code topic}.
   *
   * @return {@link ValidationResult#VALID}, {@link ValidationResult#TOMBSTONE} or a {@link Poison}
   * @throws RegistryUnavailableException when the registry could not answer (retry later; the
   *     record is not poison)
   * @throws io.sluice.schema.registry.RegistryException for other registry errors that say nothing
   *     about the record (authorization, bad URL): fail rather than quarantine
   */
  public ValidationResult validate(String topic, byte[] key, byte[] value) {
    return validate(topic, plans.forTopic(topic), threadSlots.get(), key, value);
  }

  /** A validator for the records of {@code topic}, for one thread at a time. */
  public TopicValidator forTopic(String topic) {
    return new TopicValidator(this, topic, plans.forTopic(topic));
  }

  ValidationResult validate(
      String topic, PlanCache.TopicPlans topicPlans, CaptureSlots slots, byte[] key, byte[] value) {
    return validate(topic, topicPlans, slots, key, value, true);
  }

  /**
   * As {@link #validate(String, byte[], byte[])} when the record's schema ids already have a plan;
   * null when the registry would have to be asked first (it never is).
   */
  ValidationResult validateIfCached(
      String topic, PlanCache.TopicPlans topicPlans, CaptureSlots slots, byte[] key, byte[] value) {
    return validate(topic, topicPlans, slots, key, value, false);
  }

  private ValidationResult validate(
      String topic,
      PlanCache.TopicPlans topicPlans,
      CaptureSlots slots,
      byte[] key,
      byte[] value,
      boolean mayAskRegistry) {
    if (value == null) {
      return ValidationResult.TOMBSTONE;
    }
    if (!WireFormat.hasHeader(value)) {
      return new Poison(
          ErrorCode.NOT_AVRO_WIRE_FORMAT,
          "value of topic "
              + topic
              + " is not in the Confluent wire format: "
              + wireProblem(value)
              + " (magic byte 0x00 and a 4-byte schema id expected)",
          null,
          null);
    }
    int valueId = WireFormat.schemaId(value);
    boolean keyed = key != null && WireFormat.hasHeader(key);
    int keyId = keyed ? WireFormat.schemaId(key) : 0;
    RecordPlan plan = topicPlans.find(valueId, keyed, keyId);
    if (plan != null) {
      return check(plan, topic, slots, key, value);
    }
    if (!mayAskRegistry) {
      return null;
    }
    return resolveAndCheck(topic, topicPlans, slots, key, value, valueId, keyed, keyId);
  }

  /**
   * The slow path: look the ids up in the registry, judge their lineage, build and cache the plan,
   * then check. A plan exists only for ids whose lineage was accepted, so the fast path never
   * judges it again.
   */
  private ValidationResult resolveAndCheck(
      String topic,
      PlanCache.TopicPlans topicPlans,
      CaptureSlots slots,
      byte[] key,
      byte[] value,
      int valueId,
      boolean keyed,
      int keyId) {
    RecordPlan valuePlan = topicPlans.find(valueId, false, 0);
    if (valuePlan == null) {
      SchemaLookup.Result resolved = lookup.resolve(topic, valueId, false, null);
      if (resolved.poison() != null) {
        return resolved.poison();
      }
      Poison incompatible =
          lineagePoison(topic, false, valueId, resolved.schema(), valueId, keyed ? keyId : null);
      if (incompatible != null) {
        return incompatible;
      }
      valuePlan = RecordPlan.forValue(valueId, resolved.schema());
      topicPlans.add(valuePlan);
    }
    if (!keyed) {
      return check(valuePlan, topic, slots, key, value);
    }
    // The value's stages come before the key's: report a broken value first.
    ValidationResult valueOnly = check(valuePlan, topic, slots, null, value);
    if (valueOnly instanceof Poison poison && isValueDecodeCode(poison.code())) {
      return withKeyId(poison, keyId);
    }
    SchemaLookup.Result keySchema = lookup.resolve(topic, keyId, true, valueId);
    if (keySchema.poison() != null) {
      return keySchema.poison();
    }
    Poison keyIncompatible = lineagePoison(topic, true, keyId, keySchema.schema(), valueId, keyId);
    if (keyIncompatible != null) {
      return keyIncompatible;
    }
    RecordPlan plan =
        RecordPlan.forValueAndKey(valueId, valuePlan.valueSchema, keyId, keySchema.schema());
    topicPlans.add(plan);
    return check(plan, topic, slots, key, value);
  }

  private ValidationResult check(
      RecordPlan plan, String topic, CaptureSlots slots, byte[] key, byte[] value) {
    int valueId = plan.valueSchemaId;
    Captures row = slots.row(value, plan.valueSlots);
    int end;
    try {
      end = AvroScanner.scan(plan.valueScan, value, WireFormat.HEADER_SIZE, row);
    } catch (AvroDecodeException e) {
      return new Poison(
          ErrorCode.AVRO_DECODE_FAILED,
          "value of topic "
              + topic
              + " does not decode with its writer schema (id "
              + valueId
              + "): "
              + e.getMessage(),
          valueId,
          keyIdOf(plan));
    }
    if (end != value.length) {
      return new Poison(
          ErrorCode.TRAILING_BYTES,
          trailing("value", topic, valueId, end, value.length),
          valueId,
          keyIdOf(plan));
    }
    int op = plan.envelope ? row.singleByte(RecordPlan.OP) : -1;
    boolean delete = op == 'd';
    int image = delete ? RecordPlan.BEFORE : RecordPlan.AFTER;
    boolean imagePresent = !plan.envelope || row.present(image);
    int imageBase = delete ? plan.beforeBase : plan.afterBase;
    String imageName = plan.envelope ? (delete ? "before" : "after") : "value";
    if (key != null) {
      Poison keyProblem =
          checkKey(
              plan,
              topic,
              key,
              slots.key(key, plan.keyFields.length),
              row,
              imagePresent,
              imageBase,
              imageName);
      if (keyProblem != null) {
        return keyProblem;
      }
    }
    if (contractEnabled) {
      String violation =
          contract.violation(plan, row, op, delete, imagePresent, imageBase, imageName);
      if (violation != null) {
        return new Poison(
            ErrorCode.CONTRACT_VIOLATION,
            "value of topic "
                + topic
                + " (schema id "
                + valueId
                + ") breaks the Debezium contract: "
                + violation,
            valueId,
            keyIdOf(plan));
      }
    }
    return ValidationResult.VALID;
  }

  private Poison checkKey(
      RecordPlan plan,
      String topic,
      byte[] key,
      Captures keyFields,
      Captures row,
      boolean imagePresent,
      int imageBase,
      String imageName) {
    int valueId = plan.valueSchemaId;
    if (!plan.keyed) {
      return new Poison(
          ErrorCode.KEY_NOT_AVRO_WIRE_FORMAT,
          "key of topic "
              + topic
              + " is not in the Confluent wire format: "
              + wireProblem(key)
              + " (magic byte 0x00 and a 4-byte schema id expected)",
          valueId,
          null);
    }
    int keyId = plan.keySchemaId;
    int end;
    try {
      end = AvroScanner.scan(plan.keyScan, key, WireFormat.HEADER_SIZE, keyFields);
    } catch (AvroDecodeException e) {
      return new Poison(
          ErrorCode.KEY_AVRO_DECODE_FAILED,
          "key of topic "
              + topic
              + " does not decode with its writer schema (id "
              + keyId
              + "): "
              + e.getMessage(),
          valueId,
          keyId);
    }
    if (end != key.length) {
      return new Poison(
          ErrorCode.KEY_TRAILING_BYTES,
          trailing("key", topic, keyId, end, key.length),
          valueId,
          keyId);
    }
    if (plan.keyMismatchReason != null) {
      return keyMismatch(topic, valueId, keyId, plan.keyMismatchReason);
    }
    if (!imagePresent) {
      return null; // no row image to compare with: the contract decides
    }
    for (int i = 0; i < plan.keyFields.length; i++) {
      if (!keyFields.sameValue(i, row, imageBase + i)) {
        return keyMismatch(
            topic,
            valueId,
            keyId,
            "key field '"
                + plan.keyFields[i]
                + "' differs from "
                + imageName
                + "."
                + plan.keyFields[i]);
      }
    }
    return null;
  }

  /** The lineage stage: null when it is off or the lake can follow schema {@code id}. */
  private Poison lineagePoison(
      String topic, boolean isKey, int id, Schema schema, Integer valueId, Integer keyId) {
    if (lineage == null) {
      return null;
    }
    Refusal refusal = lineage.judge(topic + (isKey ? "-key" : "-value"), id, schema, isKey);
    if (refusal == null) {
      return null;
    }
    String part = isKey ? "key" : "value";
    return new Poison(
        isKey ? ErrorCode.KEY_SCHEMA_INCOMPATIBLE : ErrorCode.SCHEMA_INCOMPATIBLE,
        part
            + " schema "
            + id
            + " of topic "
            + topic
            + " cannot follow "
            + (isKey ? "key " : "")
            + "schema "
            + refusal.followedId()
            + " on the clean topic: "
            + refusal.detail(),
        valueId,
        keyId);
  }

  /** The key schema id for a {@link Poison}: boxed only when a record is poison. */
  private static Integer keyIdOf(RecordPlan plan) {
    return plan.keyed ? plan.keySchemaId : null;
  }

  private static boolean isValueDecodeCode(ErrorCode code) {
    return code == ErrorCode.AVRO_DECODE_FAILED || code == ErrorCode.TRAILING_BYTES;
  }

  private static Poison withKeyId(Poison poison, int keyId) {
    return new Poison(poison.code(), poison.message(), poison.schemaId(), keyId);
  }

  private static Poison keyMismatch(String topic, int valueId, int keyId, String reason) {
    return new Poison(
        ErrorCode.KEY_FIELDS_MISMATCH,
        "key of topic "
            + topic
            + " (key schema id "
            + keyId
            + ") does not match the row (value schema id "
            + valueId
            + "): "
            + reason,
        valueId,
        keyId);
  }

  private static String trailing(String part, String topic, int id, int end, int length) {
    return part
        + " of topic "
        + topic
        + " (schema id "
        + id
        + ") decodes in "
        + (end - WireFormat.HEADER_SIZE)
        + " of its "
        + (length - WireFormat.HEADER_SIZE)
        + " body bytes: "
        + (length - end)
        + " trailing bytes";
  }

  private static String wireProblem(byte[] bytes) {
    if (bytes.length < WireFormat.HEADER_SIZE) {
      return "only " + bytes.length + " bytes";
    }
    return String.format("first byte is 0x%02x", bytes[0] & 0xff);
  }
}
