package io.sluice.router.validate;

/**
 * A record that decodes but breaks the Debezium contract: its key does not match the row's
 * primary-key fields, or the envelope's op/before/after rules are broken. Named as the DLQ's {@code
 * error_type} for {@link ErrorCode#KEY_FIELDS_MISMATCH} and {@link ErrorCode#CONTRACT_VIOLATION}.
 */
public class ContractViolationException extends RuntimeException {
  public ContractViolationException(String message) {
    super(message);
  }
}
