package io.sluice.schema.registry;

/**
 * An error answered by a schema registry (Confluent error body {@code {"error_code": N, "message":
 * "..."}}). Subclasses name the permanent cases; {@link RegistryUnavailableException} is the only
 * retryable one.
 */
public class RegistryException extends RuntimeException {
  private final int httpStatus;
  private final int errorCode;

  public RegistryException(int httpStatus, int errorCode, String message) {
    super(message);
    this.httpStatus = httpStatus;
    this.errorCode = errorCode;
  }

  public RegistryException(int httpStatus, int errorCode, String message, Throwable cause) {
    super(message, cause);
    this.httpStatus = httpStatus;
    this.errorCode = errorCode;
  }

  /** The HTTP status, or 0 when no response arrived. */
  public int httpStatus() {
    return httpStatus;
  }

  /** The Confluent error code (40403, 40401, 409, 42201, ...), or 0 when none was given. */
  public int errorCode() {
    return errorCode;
  }

  /** True when retrying the same request later may succeed. */
  public boolean isRetryable() {
    return false;
  }
}
