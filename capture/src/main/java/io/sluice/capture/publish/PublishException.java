package io.sluice.capture.publish;

import java.util.Optional;

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

  /** The first PublishException in {@code error}'s cause chain, if any. */
  public static Optional<PublishException> in(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof PublishException publish) {
        return Optional.of(publish);
      }
    }
    return Optional.empty();
  }
}
