package io.sluice.schema.registry;

/** 40401: the subject does not exist. */
public class SubjectNotFoundException extends RegistryException {
  public static final int ERROR_CODE = 40401;

  public SubjectNotFoundException(String message) {
    super(404, ERROR_CODE, message);
  }
}
