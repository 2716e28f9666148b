package io.sluice.router.validate;

import io.sluice.schema.registry.InvalidSchemaException;
import io.sluice.schema.registry.SchemaNotFoundException;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.registry.SubjectNotFoundException;
import org.apache.avro.Schema;

/**
 * Resolves a schema id through the registry and checks that it is a version of the topic's subject
 * (TopicNameStrategy). Permanent answers become poison; {@link
 * io.sluice.schema.registry.RegistryUnavailableException} and unexpected registry errors pass
 * through, since they say nothing about the record.
 */
final class SchemaLookup {
  private final SchemaRegistryClient registry;

  SchemaLookup(SchemaRegistryClient registry) {
    this.registry = registry;
  }

  /** The writer schema of an id, or the poison that the id makes of the record. */
  record Result(Schema schema, Poison poison) {
    static Result poison(Poison poison) {
      return new Result(null, poison);
    }
  }

  /** Looks up a schema id and checks it is a version of the topic's key or value subject. */
  Result resolve(String topic, int id, boolean isKey, Integer valueId) {
    String part = isKey ? "key" : "value";
    Integer reportedValueId = isKey ? valueId : Integer.valueOf(id);
    Integer reportedKeyId = isKey ? Integer.valueOf(id) : null;
    Schema schema;
    try {
      schema = registry.schemaById(id);
    } catch (SchemaNotFoundException e) {
      return Result.poison(
          new Poison(
              isKey ? ErrorCode.KEY_UNKNOWN_SCHEMA_ID : ErrorCode.UNKNOWN_SCHEMA_ID,
              part
                  + " of topic "
                  + topic
                  + " has schema id "
                  + id
                  + ", which the registry does not know (40403)",
              reportedValueId,
              reportedKeyId));
    } catch (InvalidSchemaException e) {
      return Result.poison(
          new Poison(
              isKey ? ErrorCode.KEY_AVRO_DECODE_FAILED : ErrorCode.AVRO_DECODE_FAILED,
              part
                  + " of topic "
                  + topic
                  + " has schema id "
                  + id
                  + ", which is not a usable Avro schema: "
                  + e.getMessage(),
              reportedValueId,
              reportedKeyId));
    }
    String subject = topic + (isKey ? "-key" : "-value");
    if (!isIdInSubject(subject, id)) {
      return Result.poison(
          new Poison(
              isKey ? ErrorCode.KEY_SCHEMA_NOT_IN_SUBJECT : ErrorCode.SCHEMA_NOT_IN_SUBJECT,
              part
                  + " of topic "
                  + topic
                  + " has schema id "
                  + id
                  + ", which is not a version of subject "
                  + subject,
              reportedValueId,
              reportedKeyId));
    }
    return new Result(schema, null);
  }

  private boolean isIdInSubject(String subject, int id) {
    try {
      return registry.isIdInSubject(subject, id);
    } catch (SubjectNotFoundException | SchemaNotFoundException e) {
      return false;
    }
  }
}
