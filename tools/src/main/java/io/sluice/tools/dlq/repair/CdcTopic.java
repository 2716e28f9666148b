package io.sluice.tools.dlq.repair;

/**
 * The parts of a Debezium topic name {@code <prefix>.<db>.<table>} (the prefix may itself hold
 * dots).
 */
public record CdcTopic(String prefix, String db, String table) {

  /**
   * Splits {@code topic}.
   *
   * @throws RepairException when the name has fewer than three parts
   */
  public static CdcTopic parse(String topic) {
    int tableDot = topic.lastIndexOf('.');
    int dbDot = tableDot > 0 ? topic.lastIndexOf('.', tableDot - 1) : -1;
    if (dbDot <= 0 || tableDot == dbDot + 1 || tableDot == topic.length() - 1) {
      throw new RepairException(
          "cannot take the database and table from topic '"
              + topic
              + "': expected <prefix>.<db>.<table> as Debezium names it");
    }
    return new CdcTopic(
        topic.substring(0, dbDot),
        topic.substring(dbDot + 1, tableDot),
        topic.substring(tableDot + 1));
  }
}
