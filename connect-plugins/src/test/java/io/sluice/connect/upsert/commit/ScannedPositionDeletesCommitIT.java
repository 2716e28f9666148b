package io.sluice.connect.upsert.commit;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.record;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.connect.testing.Envelopes;
import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.SinkHarness;
import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.event.SourceOp;
import io.sluice.connect.upsert.quarantine.QuarantineClients;
import io.sluice.connect.upsert.types.RecordConverter;
import io.sluice.connect.upsert.write.BatchWriter;
import io.sluice.connect.upsert.write.DataFileRows;
import io.sluice.connect.upsert.write.RollingFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.io.WriteResult;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A batch written with equality deletes on a table partitioned by a column that is not the key
 * deletes the keys' rows in that spec's files by position, found at its base snapshot. Another
 * engine that rewrites one of those files before the batch commits would keep the rows in its new
 * file: Iceberg must refuse the commit, and the sink's next attempt must delete them there.
 */
class ScannedPositionDeletesCommitIT {
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final TopicPartition P0 = new TopicPartition("broker.cdc_lab.orders.clean", 0);
  private static final String TOPIC = P0.topic();

  @TempDir Path dir;
  private Lake lake;
  private SinkHarness task;
  private final Map<Integer, String> model = new TreeMap<>();
  private long offset;

  @BeforeEach
  void open() {
    lake = new Lake(dir);
  }

  @AfterEach
  void close() throws IOException {
    if (task != null) {
      task.stop();
    }
    lake.close();
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aRewriteOfAFileTheBatchDeletesFromByPositionRefusesItsCommit(int format) {
    // Keys 1..40 in spec 0 (bucket of the key), then in spec 1 (also by customer's first letter).
    task = start(format);
    for (int id = 1; id <= 40; id++) {
      upsert(id, "a-" + id);
    }
    task.commit();
    Table table = lake.table(TABLE);
    table.updateSpec().addField(Expressions.truncate("customer", 1)).commit();
    for (int id = 1; id <= 40; id++) {
      upsert(id, "b-" + id);
    }
    task.commit();

    // The batch: updates of keys 1..10 to another partition of spec 1, written at `base`.
    table.refresh();
    Snapshot base = table.currentSnapshot();
    RecordConverter converter = new RecordConverter(table.schema());
    List<ChangeEvent> batch = new ArrayList<>();
    Map<ChangeEvent, BatchWriter.Converted> converted = new IdentityHashMap<>();
    for (int id = 1; id <= 10; id++) {
      ChangeEvent event =
          new ChangeEvent(TOPIC, 0, 1000 + id, SourceOp.UPDATE, key(id), row(id, "c-" + id), -1);
      batch.add(event);
      converted.put(event, BatchWriter.convert(converter, event, null));
    }
    WriteResult written = new BatchWriter(0).write(table, base, converter, batch, converted);
    assertThat(written.referencedDataFiles())
        .as("data files deleted from by position")
        .isNotEmpty();

    // Another engine rewrites one of them meanwhile, its live rows into a new file.
    String rewritten = written.referencedDataFiles()[0].toString();
    rewrite(rewritten);

    TableCommitter committer = new TableCommitter("orders-upsert", new ReentrantLock());
    assertThatThrownBy(() -> committer.commit(table, written, Map.of(), Map.of(), Map.of()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("missing data files")
        .hasMessageContaining(rewritten);

    // The sink writes the same changes again at the table as it is now: every key once.
    for (int id = 1; id <= 10; id++) {
      upsert(id, "c-" + id);
    }
    task.commit();
    Map<Integer, String> rows = new TreeMap<>();
    for (Record r : lake.rows(TABLE, "id")) {
      assertThat(rows.put((Integer) r.getField("id"), (String) r.getField("customer")))
          .as("key %s twice", r.getField("id"))
          .isNull();
    }
    assertThat(rows).isEqualTo(model);
  }

  private SinkHarness start(int format) {
    Map<String, String> props = new HashMap<>(lake.connectorProperties());
    props.put("name", "orders-upsert");
    props.put("topics", TOPIC);
    props.put("commit.interval.ms", "1000");
    props.put("table.format.version", String.valueOf(format));
    props.put("table.partition.by", "bucket(id, 2)");
    props.put("maintenance.enabled", "false");
    props.put("maintenance.merge.max-bytes", "0");
    props.put("key-index.max-bytes", "0");
    props.put("metrics.port", "-1");
    return new SinkHarness(props, List.of(P0), QuarantineClients.KAFKA);
  }

  private void upsert(int id, String customer) {
    Struct value = change(Envelopes.ENVELOPE, "u", null, row(id, customer));
    task.put(record(0, offset++, key(id), value));
    model.put(id, customer);
  }

  /** Replaces the data file at {@code location} by a new one holding its live rows. */
  private void rewrite(String location) {
    Table table = lake.table(TABLE);
    Snapshot snapshot = table.currentSnapshot();
    DataFile file = null;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask t : tasks) {
        if (t.file().location().equals(location)) {
          file = t.file();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(file).as("live data file %s", location).isNotNull();
    RollingDataWriter<Record> writer =
        RollingFiles.open(
            table,
            table.schema(),
            99,
            1,
            "external",
            Long.MAX_VALUE,
            table.specs().get(file.specId()),
            file.partition());
    try (CloseableIterable<Record> rows =
        DataFileRows.read(
            table,
            snapshot,
            file.specId(),
            file.partition(),
            Set.of(location),
            table.schema(),
            f -> {})) {
      try (writer) {
        rows.forEach(writer::write);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    var rewrite =
        table
            .newRewrite()
            .validateFromSnapshot(snapshot.snapshotId())
            .dataSequenceNumber(snapshot.sequenceNumber())
            .deleteFile(file);
    writer.result().dataFiles().forEach(rewrite::addFile);
    rewrite.commit();
  }
}
