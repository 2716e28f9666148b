package io.sluice.schema.registry;

/** Maps a registry's HTTP status and Confluent error code to the typed exceptions. */
final class RegistryErrors {
  /** Longest server message copied into an exception; registry messages can embed whole schemas. */
  static final int MAX_SERVER_MESSAGE = 1000;

  private RegistryErrors() {}

  /**
   * @param status HTTP status of the answer
   * @param errorCode {@code error_code} of the Confluent error body, 0 when there was none
   * @param serverMessage {@code message} of the error body, may be null
   * @param request what was asked, e.g. {@code "GET /schemas/ids/42 (schema id 42)"}
   */
  static RegistryException fromResponse(
      int status, int errorCode, String serverMessage, String request) {
    String message =
        request
            + ": registry answered HTTP "
            + status
            + (errorCode != 0 ? " error_code " + errorCode : "")
            + (serverMessage != null ? ": " + truncate(serverMessage) : "");
    if (status >= 500 || status == 408 || status == 429) {
      return new RegistryUnavailableException(status, message, null);
    }
    if (errorCode == SchemaNotFoundException.ERROR_CODE) {
      return new SchemaNotFoundException(message);
    }
    if (errorCode == SubjectNotFoundException.ERROR_CODE) {
      return new SubjectNotFoundException(message);
    }
    if (errorCode == VersionNotFoundException.ERROR_CODE) {
      return new VersionNotFoundException(message);
    }
    if (status == 409 || errorCode == IncompatibleSchemaException.ERROR_CODE) {
      return new IncompatibleSchemaException(message);
    }
    if (errorCode == InvalidSchemaException.ERROR_CODE
        || (status == 422 && (errorCode == 0 || errorCode == 422))) {
      return new InvalidSchemaException(message);
    }
    return new RegistryException(status, errorCode, message);
  }

  private static String truncate(String text) {
    return text.length() <= MAX_SERVER_MESSAGE
        ? text
        : text.substring(0, MAX_SERVER_MESSAGE) + "... (" + text.length() + " chars)";
  }
}
