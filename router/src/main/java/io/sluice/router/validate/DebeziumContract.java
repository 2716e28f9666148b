package io.sluice.router.validate;

import io.sluice.schema.avro.Captures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The Debezium envelope rules of {@link ErrorCode#CONTRACT_VIOLATION}: the value is an envelope,
 * its op is allowed, {@code after} is present for c/u/r and {@code before} for d, and the
 * primary-key fields of the row image are not null.
 */
final class DebeziumContract {
  private final List<String> allowedOps;

  /** Allowed one-byte ops (Debezium's), by byte: every record checks one. */
  private final boolean[] allowedByte = new boolean[256];

  /** Allowed ops of any other length. */
  private final byte[][] allowedOtherOps;

  DebeziumContract(ValidationRules rules) {
    this.allowedOps = rules.allowedOps();
    List<byte[]> others = new ArrayList<>();
    for (byte[] op : rules.allowedOpBytes()) {
      if (op.length == 1) {
        allowedByte[op[0] & 0xff] = true;
      } else {
        others.add(op);
      }
    }
    this.allowedOtherOps = others.toArray(new byte[0][]);
  }

  /**
   * What breaks the contract, or null when nothing does.
   *
   * @param op the op when it is one byte ({@link Captures#singleByte}), else -1
   */
  String violation(
      RecordPlan plan,
      Captures row,
      int op,
      boolean delete,
      boolean imagePresent,
      int imageBase,
      String imageName) {
    if (!plan.envelope) {
      return plan.notEnvelopeReason;
    }
    if (!row.present(RecordPlan.OP)) {
      return "op is null";
    }
    if (op >= 0 ? !allowedByte[op] : !isOneOf(row, allowedOtherOps)) {
      return "op " + describeOp(row) + " is not one of " + allowedOps;
    }
    if (!imagePresent && (delete || op == 'c' || op == 'u' || op == 'r')) {
      return "op " + describeOp(row) + " without " + (delete ? "a before" : "an after") + " image";
    }
    if (plan.keyed && plan.keyMismatchReason == null && imagePresent) {
      for (int i = 0; i < plan.keyFields.length; i++) {
        if (row.kind(imageBase + i) == Captures.NULL) {
          return "primary-key field " + imageName + "." + plan.keyFields[i] + " is null";
        }
      }
    }
    return null;
  }

  private static boolean isOneOf(Captures row, byte[][] ops) {
    for (byte[] op : ops) {
      if (row.bytesEqual(RecordPlan.OP, op)) {
        return true;
      }
    }
    return false;
  }

  /** The op when it is a short lower-case code, else only its length: never arbitrary bytes. */
  private static String describeOp(Captures row) {
    byte[] op = row.bytes(RecordPlan.OP);
    if (op.length > 0 && op.length <= 3) {
      boolean letters = true;
      for (byte b : op) {
        letters &= b >= 'a' && b <= 'z';
      }
      if (letters) {
        return "'" + new String(op, StandardCharsets.US_ASCII) + "'";
      }
    }
    return "of " + op.length + " bytes";
  }
}
