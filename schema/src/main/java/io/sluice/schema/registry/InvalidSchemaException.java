package io.sluice.schema.registry;

/** 42201: the schema text does not parse as Avro. */
public class InvalidSchemaException extends RegistryException {
  public static final int ERROR_CODE = 42201;

  public InvalidSchemaException(String message) {
    super(422, ERROR_CODE, message);
  }
}
