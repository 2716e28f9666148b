package io.sluice.dlq;

/**
 * Why a component refused a record: what the DLQ envelope and headers say about the failure. The
 * router builds one per poison record; a sink builds one per record it cannot write.
 *
 * @param code the stable error code, e.g. {@code AVRO_DECODE_FAILED} or {@code SINK_...}
 * @param errorType the exception class name that describes the failure ({@code error_type})
 * @param message what is wrong, naming topic, schema id and field; never payload bytes
 * @param schemaId the value's schema id when its header parsed, else null
 * @param keySchemaId the key's schema id when its header parsed, else null
 */
public record Rejection(
    String code, String errorType, String message, Integer schemaId, Integer keySchemaId) {

  public Rejection {
    if (code == null || code.isBlank()) {
      throw new IllegalArgumentException("a rejection needs an error code");
    }
    if (errorType == null || errorType.isBlank()) {
      throw new IllegalArgumentException("rejection " + code + " needs an error type");
    }
    if (message == null) {
      throw new IllegalArgumentException("rejection " + code + " needs a message");
    }
  }
}
