package io.sluice.connect.upsert.quarantine;

import io.sluice.contract.TopicNames;

/**
 * The DLQ topic of an input topic: the configured one, else the router's ({@link
 * TopicNames#dlqTopicOfRecordsIn}): {@code <main>.dlq} for {@code <main>.clean}, {@code
 * <topic>.dlq} for any other topic, with the suffixes the router runs with.
 */
public final class DlqTopics {
  private final String configured;
  private final TopicNames names;

  /**
   * @param configured the one DLQ topic of every input, or null/blank for the router's naming
   * @param names the router's topic names
   */
  public DlqTopics(String configured, TopicNames names) {
    this.configured = configured == null || configured.isBlank() ? null : configured;
    this.names = names;
  }

  public String of(String inputTopic) {
    return configured != null ? configured : names.dlqTopicOfRecordsIn(inputTopic);
  }
}
