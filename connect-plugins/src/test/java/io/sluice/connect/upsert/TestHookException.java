package io.sluice.connect.upsert;

import org.apache.kafka.connect.errors.DataException;

/**
 * A failure a test hook asked for ({@link CrashingUpsertSinkTask}). A {@link DataException}, so the
 * task and its committer rethrow it as they do a record's fault instead of retrying it: a tripped
 * hook fails every attempt the same way.
 */
public final class TestHookException extends DataException {
  public TestHookException(String message) {
    super(message);
  }
}
