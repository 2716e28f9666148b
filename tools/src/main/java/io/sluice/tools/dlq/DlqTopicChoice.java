package io.sluice.tools.dlq;

import io.sluice.contract.TopicNames;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Which DLQ topic a dlq command acts on: {@code --dlq-topic}; else the DLQ topic of {@code
 * --table}, found among the broker's topics through the router's {@link TopicNames}; else the topic
 * the command implies: the one a record id names ({@code <dlq-topic>-<partition>@<offset>}), or the
 * DLQ topic of an envelope file's original topic ({@link EnvelopeFile}); else none, and {@code
 * list} lists the DLQ topics there are while the others fail saying which there are.
 *
 * @param names the router's topic names
 * @param dlqTopic {@code --dlq-topic}, or null
 * @param table {@code --table}: {@code <db>.<table>}, an input topic or its clean topic; or null
 */
record DlqTopicChoice(TopicNames names, String dlqTopic, String table) {

  /** The DLQ topics among {@code topics} (by the router's DLQ suffix), in name order. */
  List<String> dlqTopics(Collection<String> topics) {
    return topics.stream().filter(names::isDlqTopic).sorted().toList();
  }

  /**
   * The chosen DLQ topic; empty when neither a flag nor {@code impliedTopic} chooses one.
   *
   * @param impliedTopic the topic the command implies (of its record id or envelope file), or null
   * @param topics the broker's topics, listed only for {@code --table}
   * @throws IllegalArgumentException when {@code --table} names no DLQ topic or several
   */
  Optional<String> chosen(String impliedTopic, Supplier<Collection<String>> topics) {
    if (dlqTopic != null) {
      return Optional.of(dlqTopic);
    }
    if (table != null) {
      return Optional.of(ofTable(topics.get()));
    }
    return Optional.ofNullable(impliedTopic);
  }

  /**
   * The error of {@code command} when nothing chose a DLQ topic: the DLQ topics of {@code topics}
   * and how to choose one.
   */
  String noneChosen(String command, Collection<String> topics, String bootstrapServers) {
    List<String> dlqs = dlqTopics(topics);
    return command
        + " acts on one DLQ topic: pass --dlq-topic TOPIC, or --table DB.TABLE for the router's"
        + " DLQ topic of a table; "
        + (dlqs.isEmpty()
            ? "there is no DLQ topic (" + suffix() + ") on " + bootstrapServers
            : "DLQ topics ("
                + suffix()
                + ") on "
                + bootstrapServers
                + ": "
                + String.join(", ", dlqs))
        + " (another suffix: --dlq-suffix)";
  }

  /**
   * The DLQ topic of {@code --table} among {@code topics}: the exact name first, else by ending.
   */
  private String ofTable(Collection<String> topics) {
    String input = names.inputTopic(table).orElse(table);
    List<String> dlqs = dlqTopics(topics);
    String exact = names.dlqTopic(input);
    if (dlqs.contains(exact)) {
      return exact;
    }
    List<String> matching =
        dlqs.stream()
            .filter(dlq -> names.inputTopic(dlq).orElseThrow().endsWith("." + input))
            .toList();
    if (matching.size() == 1) {
      return matching.get(0);
    }
    if (matching.isEmpty()) {
      throw new IllegalArgumentException(
          "no DLQ topic of --table "
              + table
              + ": no topic "
              + exact
              + " nor any <prefix>."
              + input
              + names.dlqSuffix()
              + " ("
              + (dlqs.isEmpty()
                  ? "there is no DLQ topic"
                  : "DLQ topics: " + String.join(", ", dlqs))
              + "); the router creates it when it first routes the input topic");
    }
    throw new IllegalArgumentException(
        "--table "
            + table
            + " matches "
            + matching.size()
            + " DLQ topics: "
            + String.join(", ", matching)
            + "; pass --dlq-topic with one of them, or its input topic as --table");
  }

  private String suffix() {
    return "suffix " + names.dlqSuffix();
  }
}
