package io.sluice.schema.registry;

/** 409: the schema breaks the subject's compatibility level. */
public class IncompatibleSchemaException extends RegistryException {
  public static final int ERROR_CODE = 409;

  public IncompatibleSchemaException(String message) {
    super(409, ERROR_CODE, message);
  }
}
