package io.sluice.router;

import io.sluice.contract.TopicNames;
import io.sluice.router.config.RouterConfig;
import java.util.regex.Pattern;

/**
 * Which topics are router inputs, and the names of their outputs ({@link TopicNames}, the names
 * every component shares). A topic {@link TopicNames#isNeverInput never an input} (an output, a
 * ledger, an internal topic) is not routed, whatever the pattern says: routing the router's own
 * outputs would loop.
 */
public final class TopicRoles {
  private final Pattern inputPattern;
  private final TopicNames names;

  public TopicRoles(Pattern inputPattern, TopicNames names) {
    this.inputPattern = inputPattern;
    this.names = names;
  }

  public static TopicRoles from(RouterConfig config) {
    return new TopicRoles(config.inputTopicPattern(), config.topicNames());
  }

  public Pattern inputPattern() {
    return inputPattern;
  }

  /** True when the router validates records of {@code topic}. */
  public boolean isInput(String topic) {
    return inputPattern.matcher(topic).matches() && !names.isNeverInput(topic);
  }

  public String cleanTopic(String inputTopic) {
    return names.cleanTopic(inputTopic);
  }

  public String dlqTopic(String inputTopic) {
    return names.dlqTopic(inputTopic);
  }
}
