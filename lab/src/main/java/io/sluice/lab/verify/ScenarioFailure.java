package io.sluice.lab.verify;

/** A step of a verification scenario did not happen: the message names what, and where it was. */
public final class ScenarioFailure extends RuntimeException {
  public ScenarioFailure(String message) {
    super(message);
  }

  public ScenarioFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
