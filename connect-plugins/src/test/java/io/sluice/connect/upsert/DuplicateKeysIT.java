package io.sluice.connect.upsert;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.record;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.commit.UpsertCommitter;
import io.sluice.connect.upsert.index.TableKeyIndex;
import io.sluice.connect.upsert.metrics.SinkMeters;
import io.sluice.connect.upsert.metrics.SinkMetricsEndpoint;
import io.sluice.connect.upsert.quarantine.QuarantineClients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * A key live twice in a sink's table (another engine inserted a row of a key the table holds): the
 * real sink task's key index finds it when it is built, says so in an ERROR and a metric, and the
 * key's next change through the sink deletes both rows, leaving one.
 */
class DuplicateKeysIT {
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final TopicPartition P0 = new TopicPartition("broker.cdc_lab.orders.clean", 0);

  @TempDir Path dir;
  private Lake lake;
  private final List<SinkHarness> tasks = new ArrayList<>();
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private SinkMetricsEndpoint.Lease metrics;
  private long offset;

  @BeforeEach
  void open() {
    lake = new Lake(dir);
    logs.start();
    ((Logger) LoggerFactory.getLogger(TableKeyIndex.class)).addAppender(logs);
    metrics = SinkMetricsEndpoint.acquire("127.0.0.1", 0);
  }

  @AfterEach
  void close() throws IOException {
    tasks.forEach(SinkHarness::stop);
    ((Logger) LoggerFactory.getLogger(TableKeyIndex.class)).detachAppender(logs);
    metrics.close();
    lake.close();
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aKeyLiveTwiceIsReportedWhenTheIndexIsBuiltAndLeftOnceByItsNextChange(int format) {
    SinkHarness first = start(format);
    List<SinkRecord> inserts = new ArrayList<>();
    for (int id = 1; id <= 10; id++) {
      inserts.add(upsert(id, "c" + id));
    }
    first.put(inserts);
    first.commit();
    first.stop();
    String duplicateFile = appendRow(3, "from-another-engine");
    assertThat(customersOf(3)).containsExactlyInAnyOrder("c3", "from-another-engine");

    SinkHarness restarted = start(format);
    restarted.put(upsert(3, "updated"));
    restarted.commit();

    assertThat(lake.table(TABLE).currentSnapshot().summary())
        .containsEntry(UpsertCommitter.COMMIT_MODE, UpsertCommitter.MODE_POSITION_DELETES);
    assertThat(customersOf(3)).as("rows of key 3").containsExactly("updated");
    assertThat(lake.rows(TABLE, "id")).hasSize(10);
    assertThat(duplicateKeysCounted()).isEqualTo(1.0);
    assertThat(logs.list)
        .filteredOn(e -> e.getLevel() == Level.ERROR)
        .singleElement()
        .extracting(ILoggingEvent::getFormattedMessage)
        .asString()
        .startsWith("Table " + lake.table(TABLE).name() + " holds 1 keys with more than one live")
        .contains("key (id=3) at ", duplicateFile + " position 0", "two live rows for one key")
        .contains("deletes every row of such a key at the key's next change");

    // Healed: the next change of the key deletes one row only.
    restarted.put(upsert(3, "again"));
    restarted.commit();
    assertThat(customersOf(3)).containsExactly("again");
  }

  private SinkHarness start(int format) {
    Map<String, String> props = new HashMap<>(lake.connectorProperties());
    props.put("name", "orders-upsert");
    props.put("topics", P0.topic());
    props.put("commit.interval.ms", "1000");
    props.put("table.format.version", String.valueOf(format));
    props.put("maintenance.enabled", "false");
    props.put("maintenance.merge.max-bytes", "0");
    props.put("metrics.port", "0");
    SinkHarness task = new SinkHarness(props, List.of(P0), QuarantineClients.KAFKA);
    tasks.add(task);
    return task;
  }

  private SinkRecord upsert(int id, String customer) {
    return record(0, offset++, key(id), change("u", null, row(id, customer)));
  }

  /** Commits one more row of key {@code id} in a new data file, as another engine's insert. */
  private String appendRow(int id, String customer) {
    Table table = lake.table(TABLE);
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 99, 1).format(FileFormat.PARQUET).build();
    DataWriter<Record> writer =
        writers.newDataWriter(files.newOutputFile(table.spec(), null), table.spec(), null);
    try (writer) {
      GenericRecord row = GenericRecord.create(table.schema());
      row.setField("id", id);
      row.setField("customer", customer);
      writer.write(row);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DataFile file = writer.toDataFile();
    table.newAppend().appendFile(file).commit();
    return file.location();
  }

  private List<String> customersOf(int id) {
    return lake.rows(TABLE, "id").stream()
        .filter(r -> r.getField("id").equals(id))
        .map(r -> (String) r.getField("customer"))
        .toList();
  }

  private double duplicateKeysCounted() {
    SinkMeters meters = metrics.meters();
    return meters
        .registry()
        .get(SinkMeters.DUPLICATE_KEYS)
        .tag("table", TABLE.toString())
        .tag("found", "index-build")
        .counter()
        .count();
  }
}
