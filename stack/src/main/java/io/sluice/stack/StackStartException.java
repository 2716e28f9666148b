package io.sluice.stack;

/** The embedded stack could not start; the message names the component and what to check. */
public final class StackStartException extends RuntimeException {
  public StackStartException(String message, Throwable cause) {
    super(message, cause);
  }

  public StackStartException(String message) {
    super(message);
  }
}
