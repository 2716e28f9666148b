package io.sluice.router.retry;

import org.apache.kafka.streams.errors.StreamsException;

/**
 * The registry stayed unavailable past {@code registry.retry.timeout.ms} for one record. Escapes
 * the processor so the task fails, its transaction aborts and Kafka Streams replaces the thread,
 * which restarts from the last committed offset: the record is never judged poison.
 */
public class RegistryRetryTimeoutException extends StreamsException {
  public RegistryRetryTimeoutException(String message, Throwable cause) {
    super(message, cause);
  }
}
