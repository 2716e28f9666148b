package io.sluice.schema.registry;

/**
 * The registry could not answer: connection refused, I/O error, timeout or a 5xx. Retryable: a
 * record must never be judged poison because of this.
 */
public class RegistryUnavailableException extends RegistryException {
  public RegistryUnavailableException(int httpStatus, String message, Throwable cause) {
    super(httpStatus, 0, message, cause);
  }

  @Override
  public boolean isRetryable() {
    return true;
  }
}
