package io.sluice.schema.registry;

/** 40403: no schema with that id (or that schema is not registered under the subject). */
public class SchemaNotFoundException extends RegistryException {
  public static final int ERROR_CODE = 40403;

  public SchemaNotFoundException(String message) {
    super(404, ERROR_CODE, message);
  }
}
