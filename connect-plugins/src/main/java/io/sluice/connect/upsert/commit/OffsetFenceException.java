package io.sluice.connect.upsert.commit;

import org.apache.kafka.connect.errors.ConnectException;

/** A commit lost the offsets fence: someone else committed the batch's partitions meanwhile. */
public final class OffsetFenceException extends ConnectException {
  OffsetFenceException(String message, Throwable cause) {
    super(message, cause);
  }
}
