package io.sluice.schema.registry;

import java.util.List;
import org.apache.avro.Schema;

/**
 * The subset of the Confluent Schema Registry REST API that Sluice uses. Every method throws a
 * subclass of {@link RegistryException}: the permanent cases ({@link SchemaNotFoundException},
 * {@link SubjectNotFoundException}, {@link IncompatibleSchemaException}, {@link
 * InvalidSchemaException}, ...) or {@link RegistryUnavailableException} when the registry could not
 * answer (retryable).
 */
public interface SchemaRegistryClient {

  /** {@code POST /subjects/{subject}/versions}: registers (or finds) the schema; returns its id. */
  int register(String subject, Schema schema);

  /** {@code GET /schemas/ids/{id}}: the schema with this global id. */
  Schema schemaById(int id);

  /** {@code GET /schemas/ids/{id}/versions}: every (subject, version) that uses this id. */
  List<SubjectVersion> subjectVersionsById(int id);

  /** True when {@code id} is one of the versions of {@code subject}. */
  boolean isIdInSubject(String subject, int id);

  /** {@code GET /subjects}. */
  List<String> subjects();

  /** {@code GET /subjects/{subject}/versions}. */
  List<Integer> versions(String subject);

  /** {@code GET /subjects/{subject}/versions/{version}}. */
  RegisteredSchema version(String subject, int version);

  /** {@code GET /subjects/{subject}/versions/latest}. */
  RegisteredSchema latest(String subject);

  /** {@code POST /subjects/{subject}}: the registered version of this exact schema. */
  RegisteredSchema lookup(String subject, Schema schema);

  /** {@code POST /compatibility/subjects/{subject}/versions/latest}. */
  boolean isCompatible(String subject, Schema schema);

  /** {@code GET /config[/subject]}: the compatibility level, global when subject is null. */
  String compatibility(String subject);

  /** {@code PUT /config[/subject]}: sets the compatibility level, global when subject is null. */
  void setCompatibility(String subject, String level);
}
