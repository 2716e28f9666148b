package io.sluice.capture.publish;

/** A change could not be published; the batch's source offsets were not committed. */
public class PublishException extends RuntimeException {
  private final String topic;

  public PublishException(String topic, String message, Throwable cause) {
    super(message, cause);
    this.topic = topic;
  }

  /** The change topic that could not be written. */
  public String topic() {
    return topic;
  }
}
