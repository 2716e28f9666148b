package io.sluice.connect.upsert.commit;

import org.apache.iceberg.exceptions.ValidationException;

/**
 * A merged batch was refused: something was committed to its partitions after the snapshot it was
 * merged into. Nothing of it is in the table; the batch can be written again.
 */
final class MergeConflictException extends RuntimeException {
  MergeConflictException(ValidationException cause) {
    super(cause.getMessage(), cause);
  }
}
