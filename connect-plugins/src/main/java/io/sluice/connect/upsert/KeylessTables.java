package io.sluice.connect.upsert;

import io.sluice.connect.upsert.metrics.SinkMetrics;
import io.sluice.connect.upsert.table.TableNames;
import java.util.HashSet;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records of a table without a primary key. Debezium gives such a table's records a null key and no
 * key schema; without {@code primary.key.fields} there is nothing to upsert by, so the sink writes
 * no current table for it: each record is counted ({@code sluice_sink_keyless_records_total}) and
 * skipped, and the first one of each table is logged once, as a WARN naming the topic and the table
 * (no payload). The changelog sink still appends every event. A keyed record whose key field is
 * null is not keyless: it stays {@code SINK_NULL_KEY_FIELD}.
 */
final class KeylessTables {
  private static final Logger log = LoggerFactory.getLogger(KeylessTables.class);

  private final boolean keyFromRecord;
  private final TableNames names;
  private final SinkMetrics metrics;
  private final Set<TableIdentifier> warned = new HashSet<>();

  /**
   * @param keyFromRecord true when {@code primary.key.fields} is empty: the key is the record key
   */
  KeylessTables(boolean keyFromRecord, TableNames names, SinkMetrics metrics) {
    this.keyFromRecord = keyFromRecord;
    this.names = names;
    this.metrics = metrics;
  }

  /** True, after counting it (and warning on its table's first), when {@code record} is keyless. */
  boolean skip(SinkRecord record) {
    // ByteArrayConverter (the direct path) gives a null key an optional bytes schema.
    if (!keyFromRecord
        || record.key() != null
        || (record.keySchema() != null
            && record.keySchema().type() != org.apache.kafka.connect.data.Schema.Type.BYTES)) {
      return false;
    }
    metrics.keyless(record.topic());
    TableIdentifier table = names.table(record.topic());
    if (warned.add(table)) {
      log.warn(
          "Topic {} has records without a key (partition {} offset {} is the first): its source"
              + " table has no primary key, so the upsert sink skips its records and writes no"
              + " table {}; the changelog table has its events. To keep a current table of it,"
              + " give the source table a primary key, or set primary.key.fields to columns that"
              + " identify a row. Counted in sluice_sink_keyless_records_total.",
          record.topic(),
          record.kafkaPartition(),
          record.kafkaOffset(),
          table);
    }
    return true;
  }
}
