package io.sluice.schema;

/**
 * Subject names by Confluent's TopicNameStrategy: {@code <topic>-key} and {@code <topic>-value}.
 */
public final class Subjects {
  private Subjects() {}

  /** {@code <topic>-key}. */
  public static String key(String topic) {
    return topic + "-key";
  }

  /** {@code <topic>-value}. */
  public static String value(String topic) {
    return topic + "-value";
  }

  /** {@link #key(String)} when {@code isKey}, else {@link #value(String)}. */
  public static String of(String topic, boolean isKey) {
    return isKey ? key(topic) : value(topic);
  }
}
