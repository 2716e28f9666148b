package io.sluice.connect.upsert.index;

import java.io.UncheckedIOException;

/**
 * A spill file of a key index could not be made or mapped (the disk full for a moment, no file
 * descriptor left, the spill directory unusable for a while): unlike {@link
 * KeyIndexLimitException}, which a larger limit cures, this may pass, so the table is indexed again
 * later. The index that threw is dropped. The message names the spill directory and the cause,
 * never a key.
 */
public final class KeyIndexSpillException extends RuntimeException {
  KeyIndexSpillException(UncheckedIOException cause) {
    super(cause.getMessage() + " (" + cause.getCause() + ")", cause);
  }
}
