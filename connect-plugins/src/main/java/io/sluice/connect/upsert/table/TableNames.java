package io.sluice.connect.upsert.table;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.connect.errors.DataException;

/**
 * Topic to table: {@code table.topic.regex} matched against the topic fills the placeholders of
 * {@code table.name.format} ({@code {db}.{table}_current} from {@code broker.cdc_lab.orders.clean}
 * gives {@code cdc_lab.orders_current}).
 */
public final class TableNames {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9]*)}");

  private final Pattern topicRegex;
  private final String format;

  public TableNames(Pattern topicRegex, String format) {
    this.topicRegex = topicRegex;
    this.format = format;
  }

  /**
   * The table of {@code topic}.
   *
   * @throws DataException when the topic does not match the regex
   */
  public TableIdentifier table(String topic) {
    Matcher topicMatch = topicRegex.matcher(topic);
    if (!topicMatch.matches()) {
      throw new DataException(
          "topic "
              + topic
              + " does not match table.topic.regex "
              + topicRegex.pattern()
              + ", so it has no table");
    }
    Matcher placeholder = PLACEHOLDER.matcher(format);
    StringBuilder name = new StringBuilder();
    while (placeholder.find()) {
      String group = placeholder.group(1);
      String value = group.equals("topic") ? topic : topicMatch.group(group);
      placeholder.appendReplacement(name, Matcher.quoteReplacement(value == null ? "" : value));
    }
    placeholder.appendTail(name);
    return TableIdentifier.parse(name.toString());
  }
}
