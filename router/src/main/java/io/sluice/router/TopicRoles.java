package io.sluice.router;

import io.sluice.router.config.RouterConfig;
import java.util.regex.Pattern;

/**
 * Which topics are router inputs, and the names of their outputs. A topic that ends with the clean
 * or DLQ suffix or {@code .repairs}, or starts with {@code _}, is never an input, whatever the
 * pattern says: routing the router's own outputs would loop.
 */
public final class TopicRoles {
  static final String REPAIRS_SUFFIX = ".repairs";

  private final Pattern inputPattern;
  private final String cleanSuffix;
  private final String dlqSuffix;

  public TopicRoles(Pattern inputPattern, String cleanSuffix, String dlqSuffix) {
    this.inputPattern = inputPattern;
    this.cleanSuffix = cleanSuffix;
    this.dlqSuffix = dlqSuffix;
  }

  public static TopicRoles from(RouterConfig config) {
    return new TopicRoles(
        config.inputTopicPattern(), config.cleanTopicSuffix(), config.dlqTopicSuffix());
  }

  public Pattern inputPattern() {
    return inputPattern;
  }

  /** True when the router validates records of {@code topic}. */
  public boolean isInput(String topic) {
    return inputPattern.matcher(topic).matches() && !isExcluded(topic);
  }

  /** True for topics that are never inputs (outputs, repair ledgers, internal topics). */
  public boolean isExcluded(String topic) {
    return topic.startsWith("_")
        || topic.endsWith(cleanSuffix)
        || topic.endsWith(dlqSuffix)
        || topic.endsWith(REPAIRS_SUFFIX);
  }

  public String cleanTopic(String inputTopic) {
    return inputTopic + cleanSuffix;
  }

  public String dlqTopic(String inputTopic) {
    return inputTopic + dlqSuffix;
  }
}
