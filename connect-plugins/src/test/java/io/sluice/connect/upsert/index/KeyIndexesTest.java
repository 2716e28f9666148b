package io.sluice.connect.upsert.index;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** A task's key indexes of a table of Parquet files on Iceberg's in-memory catalog. */
class KeyIndexesTest {
  private static final TableIdentifier ID = TableIdentifier.of("shop", "orders_current");
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "note", Types.StringType.get())),
          Set.of(1));
  private static final Schema KEY = TypeUtil.select(SCHEMA, SCHEMA.identifierFieldIds());

  /** Keys far from any count or size a log line holds, so a key in a log would show. */
  private static final long FIRST_KEY = 987_654_321_000L;

  @TempDir Path spillDir;
  private InMemoryCatalog catalog;
  private Table table;
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final AtomicInteger builds = new AtomicInteger();

  @BeforeEach
  void createTable() {
    catalog = new InMemoryCatalog();
    catalog.initialize("mem", Map.of());
    catalog.createNamespace(Namespace.of("shop"));
    table = catalog.createTable(ID, SCHEMA, PartitionSpec.unpartitioned());
    logs.start();
    ((Logger) LoggerFactory.getLogger(KeyIndexes.class)).addAppender(logs);
  }

  @AfterEach
  void closeCatalog() throws IOException {
    ((Logger) LoggerFactory.getLogger(KeyIndexes.class)).detachAppender(logs);
    catalog.close();
  }

  @Test
  void anIndexPastTheHeapLimitSpillsAndPlacesEveryKey() {
    append(0, 5_000);
    KeyIndexes indexes = new KeyIndexes(new KeyIndexLimits(4096, 64L << 20, spillDir));

    TableKeyIndex index = current(indexes).orElseThrow();

    assertThat(index.keys()).isEqualTo(5_000);
    assertThat(index.spilledBytes()).isPositive().isLessThanOrEqualTo(index.bytes());
    for (long key = 0; key < 5_000; key++) {
      assertThat(index.locate(key(key))).as("key %d", key).isNotNull();
      assertThat(index.locate(key(key)).position()).isEqualTo(key);
    }
    assertThat(index.locate(key(-1))).isNull();
    assertThat(spillDir).isEmptyDirectory();
    assertThat(infos())
        .singleElement()
        .asString()
        .contains("5000 keys", index.spilledBytes() + " of them in mapped files");
  }

  @Test
  void anIndexPastTheHeapAndSpillLimitsIsRefusedWithOneWarningAndNotBuiltAgain() {
    append(0, 5_000);
    KeyIndexes indexes = new KeyIndexes(new KeyIndexLimits(4096, 16 << 10, spillDir));

    assertThat(current(indexes)).isEmpty();
    assertThat(current(indexes)).isEmpty();

    assertThat(builds).as("refused while building: no build reported").hasValue(0);
    assertThat(warnings())
        .singleElement()
        .asString()
        .startsWith("The key index of shop.orders_current reached ")
        .contains(
            "above key-index.max-bytes (4096) and key-index.spill.max-bytes (16384)",
            "Raise key-index.spill.max-bytes",
            spillDir.toString())
        .doesNotContain(String.valueOf(FIRST_KEY).substring(0, 6));
  }

  @Test
  void anIndexCaughtUpPastItsLimitsIsDroppedWithAWarning() {
    append(0, 100);
    KeyIndexes indexes = new KeyIndexes(new KeyIndexLimits(4096, 16 << 10, spillDir));
    assertThat(current(indexes)).isPresent();

    append(100, 5_000);

    assertThat(current(indexes)).isEmpty();
    assertThat(indexes.held(ID)).isEmpty();
    assertThat(builds).hasValue(1);
    assertThat(warnings())
        .singleElement()
        .asString()
        .contains("key-index.spill.max-bytes (16384)", "the table gets no key index");
  }

  @Test
  void withSpillingOffAnIndexPastTheHeapLimitIsRefused() {
    append(0, 5_000);
    KeyIndexes indexes = new KeyIndexes(new KeyIndexLimits(4096, 0, spillDir));

    assertThat(current(indexes)).isEmpty();

    assertThat(warnings())
        .singleElement()
        .asString()
        .contains("above key-index.max-bytes (4096), and key-index.spill.max-bytes is 0");
    assertThat(spillDir).isEmptyDirectory();
  }

  private Optional<TableKeyIndex> current(KeyIndexes indexes) {
    table.refresh();
    return indexes.current(ID, table, KEY, (id, index, nanos) -> builds.incrementAndGet());
  }

  private List<String> warnings() {
    return messages(Level.WARN);
  }

  private List<String> infos() {
    return messages(Level.INFO);
  }

  private List<String> messages(Level level) {
    return logs.list.stream()
        .filter(e -> e.getLevel() == level)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  /** Key {@code k} of the index: {@link #FIRST_KEY} + k in the table. */
  private static GenericRecord key(long k) {
    GenericRecord key = GenericRecord.create(KEY);
    key.setField("id", FIRST_KEY + k);
    return key;
  }

  /** Appends keys {@code from} to {@code to} (exclusive) in one Parquet file, in that order. */
  private void append(long from, long to) {
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, from).format(FileFormat.PARQUET).build();
    DataWriter<Record> writer = writers.newDataWriter(files.newOutputFile(), table.spec(), null);
    try (writer) {
      for (long k = from; k < to; k++) {
        GenericRecord row = GenericRecord.create(SCHEMA);
        row.setField("id", FIRST_KEY + k);
        row.setField("note", "n" + k);
        writer.write(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DataFile file = writer.toDataFile();
    table.newAppend().appendFile(file).commit();
  }
}
