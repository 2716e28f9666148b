package io.sluice.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.contract.ReadyFile;
import io.sluice.contract.TopicNames;
import io.sluice.contract.TopicSuffixException;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The topic suffixes of the router a command works against ({@link TopicNames}): each from its
 * flag, else from the ready file's {@value ReadyFile#TOPICS} (which the stack writes from the
 * router's config), else the default. Flags win over the ready file, as for every endpoint.
 */
public final class TopicSuffixOptions {
  static final String CLEAN_FLAG = "--clean-suffix";
  static final String DLQ_FLAG = "--dlq-suffix";

  @Option(
      names = CLEAN_FLAG,
      paramLabel = "SUFFIX",
      description =
          "The router's clean.topic.suffix; overrides the ready file's topics.clean_suffix"
              + " (default: the ready file's, else .clean).")
  String cleanSuffix;

  @Option(
      names = DLQ_FLAG,
      paramLabel = "SUFFIX",
      description =
          "The router's dlq.topic.suffix: DLQ topics are <input><suffix>; overrides the ready"
              + " file's topics.dlq_suffix (default: the ready file's, else .dlq).")
  String dlqSuffix;

  /**
   * The topic names of the flags and {@code root}, the ready file's object (null when there is
   * none).
   *
   * @throws ParameterException naming the flag or ready-file field and the bad value
   */
  public TopicNames resolve(CommandReadyFile ready, JsonNode root, CommandLine commandLine) {
    TopicNames file = ready.topicNames(root);
    JsonNode topics = root == null ? null : root.get(ReadyFile.TOPICS);
    try {
      return TopicNames.of(
          cleanSuffix != null ? cleanSuffix : file.cleanSuffix(),
          dlqSuffix != null ? dlqSuffix : file.dlqSuffix(),
          file.repairsSuffix(),
          new TopicNames.Keys(
              cleanSuffix != null ? CLEAN_FLAG : source(ready, topics, ReadyFile.CLEAN_SUFFIX),
              dlqSuffix != null ? DLQ_FLAG : source(ready, topics, ReadyFile.DLQ_SUFFIX),
              source(ready, topics, ReadyFile.REPAIRS_SUFFIX)));
    } catch (TopicSuffixException e) {
      throw new ParameterException(commandLine, e.getMessage(), e);
    }
  }

  /** Where a suffix no flag gave comes from, as an error names it. */
  private static String source(CommandReadyFile ready, JsonNode topics, String field) {
    return topics != null && topics.hasNonNull(field)
        ? "ready file " + ready.file().path() + ": " + ReadyFile.TOPICS + "." + field
        : "the default " + field;
  }
}
