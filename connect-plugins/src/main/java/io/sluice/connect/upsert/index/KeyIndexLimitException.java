package io.sluice.connect.upsert.index;

/**
 * A key index would grow past its limits (heap, then mapped files), or its spill directory has no
 * room: the table gets no index. The message says which limit and never holds a key.
 */
public final class KeyIndexLimitException extends RuntimeException {
  private final long keys;
  private final long bytes;

  KeyIndexLimitException(long keys, long bytes, String reason) {
    super(reason);
    this.keys = keys;
    this.bytes = bytes;
  }

  /** Keys the index held when it stopped. */
  public long keys() {
    return keys;
  }

  /** Bytes the index needed to grow. */
  public long bytes() {
    return bytes;
  }
}
