package io.sluice.connect.upsert.quarantine;

/**
 * The DLQ topic of an input topic: the configured one, else the router's: {@code <main>.dlq} for
 * {@code <main>.clean}, {@code <topic>.dlq} for any other topic.
 */
public final class DlqTopics {
  private static final String CLEAN = ".clean";
  private static final String DLQ = ".dlq";

  private final String configured;

  /**
   * @param configured the one DLQ topic of every input, or null/blank for the router's naming
   */
  public DlqTopics(String configured) {
    this.configured = configured == null || configured.isBlank() ? null : configured;
  }

  public String of(String inputTopic) {
    if (configured != null) {
      return configured;
    }
    String main =
        inputTopic.endsWith(CLEAN)
            ? inputTopic.substring(0, inputTopic.length() - CLEAN.length())
            : inputTopic;
    return main + DLQ;
  }
}
