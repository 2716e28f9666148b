package io.sluice.tools.dlq;

import io.sluice.tools.dlq.kafka.Coordinates;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * How the commands name a DLQ record, in every form they print one: {@code <offset>} (with {@code
 * --partition} when the offset is in several partitions), {@code <partition>@<offset>} as {@code
 * list} prints it, or {@code <dlq-topic>-<partition>@<offset>} as {@code show}, {@code replay} and
 * {@code repair} print it.
 *
 * @param topic the DLQ topic the id names, or null
 * @param partition the DLQ partition the id names, or null
 * @param offset the DLQ offset
 */
record DlqRecordId(String topic, Integer partition, long offset) {
  /** The accepted forms, for help texts and errors. */
  static final String FORMS = "<offset>, <partition>@<offset> or <dlq-topic>-<partition>@<offset>";

  // Topic names may contain '-', so the partition is what follows the last one.
  private static final Pattern WITH_PARTITION =
      Pattern.compile("(?:(?<topic>.+)-)?(?<partition>\\d+)@(?<offset>\\d+)");

  /** The id {@code list} prints for the record at {@code dlq}. */
  static String of(Coordinates dlq) {
    return dlq.partition() + "@" + dlq.offset();
  }

  /**
   * Parses an id in one of the {@link #FORMS}.
   *
   * @throws IllegalArgumentException naming {@code text} and the accepted forms
   */
  static DlqRecordId parse(String text) {
    Matcher m = WITH_PARTITION.matcher(text);
    try {
      if (m.matches()) {
        return new DlqRecordId(
            m.group("topic"),
            Integer.parseInt(m.group("partition")),
            Long.parseLong(m.group("offset")));
      }
      // Long.parseLong, as the commands read a bare offset before ids had other forms.
      long offset = Long.parseLong(text);
      if (offset >= 0) {
        return new DlqRecordId(null, null, offset);
      }
    } catch (NumberFormatException e) {
      // too large for a partition or an offset: the same error as any other bad id
    }
    throw new IllegalArgumentException(
        "'"
            + text
            + "' is not a DLQ record id; give "
            + FORMS
            + " (as `sluice dlq list` prints it: 1@42)");
  }

  /**
   * The partition to look in: the id's, else {@code option} (of {@code --partition}), else null.
   *
   * @throws IllegalArgumentException when the id names another topic than {@code dlqTopic}, or
   *     another partition than {@code option}
   */
  Integer partitionIn(String dlqTopic, Integer option) {
    if (topic != null && !topic.equals(dlqTopic)) {
      throw new IllegalArgumentException(
          "DLQ record "
              + this
              + " is in topic "
              + topic
              + ", not in the DLQ topic "
              + dlqTopic
              + "; pass --dlq-topic "
              + topic
              + " or an id from `sluice dlq list`");
    }
    if (partition != null && option != null && !partition.equals(option)) {
      throw new IllegalArgumentException(
          "DLQ record "
              + this
              + " is in partition "
              + partition
              + ", but --partition is "
              + option);
    }
    return partition != null ? partition : option;
  }

  @Override
  public String toString() {
    String at = partition == null ? String.valueOf(offset) : partition + "@" + offset;
    return topic == null ? at : topic + "-" + at;
  }

  /** Reads the id of a command line, so a bad one is a usage error that names it. */
  static final class Converter implements ITypeConverter<DlqRecordId> {
    @Override
    public DlqRecordId convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
