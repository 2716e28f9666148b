package io.sluice.contract;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The names of the topics around an input topic, as every Sluice component derives them: the router
 * writes {@code <input><clean suffix>} and {@code <input><dlq suffix>}, the upsert sink quarantines
 * the records of a clean topic to its input's DLQ topic, the DLQ tools keep their ledger in {@code
 * <dlq topic><repairs suffix>}, and the monitor watches the topics that end with the DLQ suffix.
 * Defaults: {@code .clean}, {@code .dlq}, {@code .repairs} (so {@code <input>.dlq.repairs}).
 *
 * <p>No suffix may end with another (nor equal it): otherwise a name would be, say, both a clean
 * and a DLQ topic, and the router, the sink and the monitor would disagree about it.
 */
public final class TopicNames {
  /** The router's and the upsert sink's key of the clean suffix. */
  public static final String CLEAN_SUFFIX_CONFIG = "clean.topic.suffix";

  /** The router's and the upsert sink's key of the DLQ suffix. */
  public static final String DLQ_SUFFIX_CONFIG = "dlq.topic.suffix";

  public static final String DEFAULT_CLEAN_SUFFIX = ".clean";
  public static final String DEFAULT_DLQ_SUFFIX = ".dlq";
  public static final String DEFAULT_REPAIRS_SUFFIX = ".repairs";

  /** Where a component reads each suffix from, as its errors name it. */
  public record Keys(String clean, String dlq, String repairs) {
    /** The configuration keys ({@code repairs.topic.suffix} is no key any component reads yet). */
    public static final Keys CONFIG =
        new Keys(CLEAN_SUFFIX_CONFIG, DLQ_SUFFIX_CONFIG, "repairs.topic.suffix");
  }

  // Before DEFAULTS, which is checked with it.
  private static final Pattern TOPIC_CHARACTERS = Pattern.compile("[A-Za-z0-9._-]+");

  /** {@code .clean}, {@code .dlq}, {@code .repairs}. */
  public static final TopicNames DEFAULTS =
      of(DEFAULT_CLEAN_SUFFIX, DEFAULT_DLQ_SUFFIX, DEFAULT_REPAIRS_SUFFIX, Keys.CONFIG);

  private final String cleanSuffix;
  private final String dlqSuffix;
  private final String repairsSuffix;

  private TopicNames(String cleanSuffix, String dlqSuffix, String repairsSuffix) {
    this.cleanSuffix = cleanSuffix;
    this.dlqSuffix = dlqSuffix;
    this.repairsSuffix = repairsSuffix;
  }

  /**
   * The names with these clean and DLQ suffixes and the default repairs suffix.
   *
   * @throws TopicSuffixException naming the configuration key and the bad value
   */
  public static TopicNames of(String cleanSuffix, String dlqSuffix) {
    return of(cleanSuffix, dlqSuffix, DEFAULT_REPAIRS_SUFFIX, Keys.CONFIG);
  }

  /**
   * The names with these suffixes, checked one by one and against each other.
   *
   * @param keys where the suffixes come from, for the error
   * @throws TopicSuffixException naming the key (of {@code keys}) and the bad value
   */
  public static TopicNames of(
      String cleanSuffix, String dlqSuffix, String repairsSuffix, Keys keys) {
    checkSuffix(keys.clean(), cleanSuffix);
    checkSuffix(keys.dlq(), dlqSuffix);
    checkSuffix(keys.repairs(), repairsSuffix);
    List<String> names = List.of(keys.clean(), keys.dlq(), keys.repairs());
    List<String> values = List.of(cleanSuffix, dlqSuffix, repairsSuffix);
    // The later key of a clashing pair is the one named: the defaults come first.
    for (int later = 1; later < values.size(); later++) {
      for (int earlier = 0; earlier < later; earlier++) {
        String a = values.get(later);
        String b = values.get(earlier);
        if (a.endsWith(b) || b.endsWith(a)) {
          throw new TopicSuffixException(
              names.get(later),
              a,
              (a.equals(b) ? "must differ from " : "must not end with, nor be the end of, ")
                  + names.get(earlier)
                  + " ('"
                  + b
                  + "'): a topic would have both roles");
        }
      }
    }
    return new TopicNames(cleanSuffix, dlqSuffix, repairsSuffix);
  }

  /**
   * Checks one suffix: not empty, only the characters of a Kafka topic name.
   *
   * @throws TopicSuffixException naming {@code key} and {@code value}
   */
  public static void checkSuffix(String key, String value) {
    if (value == null || value.isEmpty()) {
      throw new TopicSuffixException(key, value, "must not be empty");
    }
    if (!TOPIC_CHARACTERS.matcher(value).matches()) {
      throw new TopicSuffixException(
          key, value, "may hold only letters, digits, '.', '_' and '-' (a Kafka topic's)");
    }
  }

  /** A ConfigDef validator of one suffix ({@link #checkSuffix}); the docs show "topic suffix". */
  public static ConfigDef.Validator suffixValidator() {
    return new SuffixValidator();
  }

  public String cleanSuffix() {
    return cleanSuffix;
  }

  public String dlqSuffix() {
    return dlqSuffix;
  }

  public String repairsSuffix() {
    return repairsSuffix;
  }

  /** {@code <input><clean suffix>}: where the router writes the valid records of the input. */
  public String cleanTopic(String inputTopic) {
    return inputTopic + cleanSuffix;
  }

  /** {@code <input><dlq suffix>}: where the router and the upsert sink quarantine its records. */
  public String dlqTopic(String inputTopic) {
    return inputTopic + dlqSuffix;
  }

  /** {@code <input><dlq suffix><repairs suffix>}: the ledger of the input's DLQ topic. */
  public String repairsTopic(String inputTopic) {
    return repairsTopicOfDlq(dlqTopic(inputTopic));
  }

  /** {@code <dlq topic><repairs suffix>}: the ledger of any DLQ topic, also one named by hand. */
  public String repairsTopicOfDlq(String dlqTopic) {
    return dlqTopic + repairsSuffix;
  }

  /**
   * The DLQ topic of the records a sink reads from {@code topic}: the input's DLQ for a clean topic
   * ({@code <main>.dlq} for {@code <main>.clean}), {@code <topic><dlq suffix>} for any other.
   */
  public String dlqTopicOfRecordsIn(String topic) {
    return dlqTopic(isCleanTopic(topic) ? strip(topic, cleanSuffix) : topic);
  }

  /** The input topic of a clean or DLQ topic; empty for any other name. */
  public Optional<String> inputTopic(String cleanOrDlqTopic) {
    if (isCleanTopic(cleanOrDlqTopic)) {
      return Optional.of(strip(cleanOrDlqTopic, cleanSuffix));
    }
    if (isDlqTopic(cleanOrDlqTopic)) {
      return Optional.of(strip(cleanOrDlqTopic, dlqSuffix));
    }
    return Optional.empty();
  }

  /** True for a name ending with the clean suffix (and longer than it). */
  public boolean isCleanTopic(String topic) {
    return endsWithAfterSomething(topic, cleanSuffix);
  }

  /** True for a name ending with the DLQ suffix (and longer than it). */
  public boolean isDlqTopic(String topic) {
    return endsWithAfterSomething(topic, dlqSuffix);
  }

  /** True for a name ending with the repairs suffix (and longer than it): a ledger. */
  public boolean isRepairsTopic(String topic) {
    return endsWithAfterSomething(topic, repairsSuffix);
  }

  /** The DLQ topics as one Java regex matched against whole names: {@code .+\.dlq}. */
  public Pattern dlqTopicPattern() {
    return Pattern.compile(".+" + dlqSuffix.replace(".", "\\."));
  }

  /**
   * True for the topics the router never reads, whatever its input pattern: its outputs (clean,
   * DLQ), the DLQ tools' ledgers and internal topics (a leading {@code _}). Routing the router's
   * own outputs would loop.
   */
  public boolean isNeverInput(String topic) {
    return topic.startsWith("_")
        || topic.endsWith(cleanSuffix)
        || topic.endsWith(dlqSuffix)
        || topic.endsWith(repairsSuffix);
  }

  private static boolean endsWithAfterSomething(String topic, String suffix) {
    return topic.length() > suffix.length() && topic.endsWith(suffix);
  }

  private static String strip(String topic, String suffix) {
    return topic.substring(0, topic.length() - suffix.length());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TopicNames other
        && cleanSuffix.equals(other.cleanSuffix)
        && dlqSuffix.equals(other.dlqSuffix)
        && repairsSuffix.equals(other.repairsSuffix);
  }

  @Override
  public int hashCode() {
    return Objects.hash(cleanSuffix, dlqSuffix, repairsSuffix);
  }

  @Override
  public String toString() {
    return "TopicNames[clean "
        + cleanSuffix
        + ", dlq "
        + dlqSuffix
        + ", repairs "
        + repairsSuffix
        + "]";
  }

  private static final class SuffixValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      try {
        checkSuffix(name, (String) value);
      } catch (TopicSuffixException e) {
        throw new ConfigException(name, value, e.reason());
      }
    }

    @Override
    public String toString() {
      return "topic suffix: letters, digits, '.', '_', '-'";
    }
  }
}
