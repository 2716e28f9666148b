package io.sluice.contract;

/**
 * A ready file that cannot give what a reader needs: missing, not one JSON object, a key missing or
 * bad. The message names the file and what to pass or do instead; a command line reports it as a
 * usage error.
 */
public final class ReadyFileException extends IllegalArgumentException {
  public ReadyFileException(String message) {
    super(message);
  }
}
