package io.sluice.capture.publish;

/** A change could not be published; the batch's source offsets were not committed. */
public class PublishException extends RuntimeException {
  public PublishException(String message, Throwable cause) {
    super(message, cause);
  }
}
