package io.sluice.router.validate;

import io.sluice.schema.avro.AvroDecodeException;
import io.sluice.schema.registry.SchemaNotFoundException;
import io.sluice.schema.wire.WireFormatException;

/**
 * Why a record is poison: one code per validation stage, in stage order (see
 * docs/design.md#validation-stages-and-error-codes). The first failing stage wins. The error type
 * is the exception class written as the DLQ's {@code error_type} and {@code
 * __streams.errors.exception}.
 */
public enum ErrorCode {
  NOT_AVRO_WIRE_FORMAT(WireFormatException.class),
  UNKNOWN_SCHEMA_ID(SchemaNotFoundException.class),
  SCHEMA_NOT_IN_SUBJECT(SchemaNotFoundException.class),
  SCHEMA_INCOMPATIBLE(SchemaIncompatibleException.class),
  AVRO_DECODE_FAILED(AvroDecodeException.class),
  TRAILING_BYTES(AvroDecodeException.class),
  KEY_NOT_AVRO_WIRE_FORMAT(WireFormatException.class),
  KEY_UNKNOWN_SCHEMA_ID(SchemaNotFoundException.class),
  KEY_SCHEMA_NOT_IN_SUBJECT(SchemaNotFoundException.class),
  KEY_SCHEMA_INCOMPATIBLE(SchemaIncompatibleException.class),
  KEY_AVRO_DECODE_FAILED(AvroDecodeException.class),
  KEY_TRAILING_BYTES(AvroDecodeException.class),
  KEY_FIELDS_MISMATCH(ContractViolationException.class),
  CONTRACT_VIOLATION(ContractViolationException.class);

  private final String errorType;

  ErrorCode(Class<? extends Exception> errorType) {
    this.errorType = errorType.getName();
  }

  /** The exception class name that describes this failure. */
  public String errorType() {
    return errorType;
  }
}
