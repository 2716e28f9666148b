package io.sluice.router.validate;

/**
 * A writer schema that the lake cannot follow from the schemas the clean topic already carried
 * (docs/design.md#schema-lineage). Named as the DLQ's {@code error_type} for {@link
 * ErrorCode#SCHEMA_INCOMPATIBLE} and {@link ErrorCode#KEY_SCHEMA_INCOMPATIBLE}.
 */
public class SchemaIncompatibleException extends RuntimeException {
  public SchemaIncompatibleException(String message) {
    super(message);
  }
}
