package io.sluice.dlq;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The one digest Sluice puts in logs, DLQ envelopes and reports in place of a payload: SHA-256 as
 * lower-case hex.
 */
public final class Sha256 {
  private Sha256() {}

  /** Lower-case hex sha256 of {@code bytes}, or null for null. */
  public static String hex(byte[] bytes) {
    return bytes == null ? null : HexFormat.of().formatHex(digest().digest(bytes));
  }

  /** Lower-case hex of a finished digest. */
  public static String hex(MessageDigest digest) {
    return HexFormat.of().formatHex(digest.digest());
  }

  /** A new SHA-256 digest, for content fed in parts. */
  public static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
