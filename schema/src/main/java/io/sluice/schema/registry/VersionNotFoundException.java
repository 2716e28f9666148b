package io.sluice.schema.registry;

/** 40402: the subject exists but has no such version. */
public class VersionNotFoundException extends RegistryException {
  public static final int ERROR_CODE = 40402;

  public VersionNotFoundException(String message) {
    super(404, ERROR_CODE, message);
  }
}
