package io.sluice.router.validate;

import io.sluice.dlq.Rejection;

/**
 * A record that failed a validation stage.
 *
 * @param code the failing stage
 * @param message what is wrong, naming topic, schema id and field; never payload bytes
 * @param schemaId the value's schema id when its header parsed, else null
 * @param keySchemaId the key's schema id when its header parsed, else null
 */
public record Poison(ErrorCode code, String message, Integer schemaId, Integer keySchemaId)
    implements ValidationResult {

  /** The exception class name for {@code error_type}. */
  public String errorType() {
    return code.errorType();
  }

  /** What the DLQ record says about this failure. */
  public Rejection rejection() {
    return new Rejection(code.name(), errorType(), message, schemaId, keySchemaId);
  }
}
