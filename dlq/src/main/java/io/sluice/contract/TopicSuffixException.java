package io.sluice.contract;

/** A topic suffix that cannot be used: names where it came from, the value and why. */
public final class TopicSuffixException extends IllegalArgumentException {
  private final String key;
  private final String value;
  private final String reason;

  public TopicSuffixException(String key, String value, String reason) {
    super(key + ": '" + value + "' " + reason);
    this.key = key;
    this.value = value;
    this.reason = reason;
  }

  /** The key (configuration key, flag, ready-file field) the suffix was given under. */
  public String key() {
    return key;
  }

  /** The suffix as given (null when none was). */
  public String value() {
    return value;
  }

  /** Why it cannot be used, without the key and the value. */
  public String reason() {
    return reason;
  }
}
