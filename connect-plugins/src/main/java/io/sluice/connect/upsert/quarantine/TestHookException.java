package io.sluice.connect.upsert.quarantine;

import org.apache.kafka.connect.errors.ConnectException;

/** A failure a test hook ({@code sluice.test.*}) asked for: fails the task, never retried. */
public final class TestHookException extends ConnectException {
  public TestHookException(String message) {
    super(message);
  }
}
