package io.sluice.router.validate;

import io.sluice.schema.avro.Captures;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The Debezium envelope rules of {@link ErrorCode#CONTRACT_VIOLATION}: the value is an envelope,
 * its op is allowed, {@code after} is present for c/u/r and {@code before} for d, and the
 * primary-key fields of the row image are not null.
 */
final class DebeziumContract {
  private static final byte[][] NEEDS_AFTER = {{'c'}, {'u'}, {'r'}};

  private final List<String> allowedOps;
  private final byte[][] allowedOpBytes;

  DebeziumContract(ValidationRules rules) {
    this.allowedOps = rules.allowedOps();
    this.allowedOpBytes = rules.allowedOpBytes();
  }

  /** What breaks the contract, or null when nothing does. */
  String violation(
      RecordPlan plan,
      Captures row,
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
    if (!isOneOf(row, allowedOpBytes)) {
      return "op " + describeOp(row) + " is not one of " + allowedOps;
    }
    if (!imagePresent && (delete || isOneOf(row, NEEDS_AFTER))) {
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
