package io.sluice.connect.upsert.commit;

import org.apache.iceberg.exceptions.ValidationException;

/**
 * A batch written with deletes by position was refused: since the snapshot its positions were found
 * at, a commit removed a data file it deletes from (a rewrite), gave one of them a DV, deleted one
 * of its rows, or wrote one of its keys. Nothing of the batch was committed; the key index catches
 * up and the batch is written again.
 */
final class PositionConflictException extends RuntimeException {
  PositionConflictException(ValidationException cause) {
    super(cause.getMessage(), cause);
  }
}
