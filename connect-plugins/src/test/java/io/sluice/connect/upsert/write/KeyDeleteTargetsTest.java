package io.sluice.connect.upsert.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.connect.testing.Lake;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the equality-delete fallback places a batch's deletes, spec by spec. */
class KeyDeleteTargetsTest {
  private static final TableIdentifier TABLE = TableIdentifier.of("db", "t");
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.IntegerType.get()),
              Types.NestedField.optional(2, "customer", Types.StringType.get())),
          Set.of(1));

  @TempDir Path dir;
  private Lake lake;

  @BeforeEach
  void open() {
    lake = new Lake(dir);
  }

  @AfterEach
  void close() throws IOException {
    lake.close();
  }

  @Test
  void aTableWithOneSpecIsWrittenAsBeforeWithoutReadingItsSnapshot() {
    Table table = create(PartitionSpec.builderFor(SCHEMA).bucket("id", 4).build());
    append(table);
    // Any call on the snapshot (its manifest list) fails the test.
    Snapshot unread =
        (Snapshot)
            Proxy.newProxyInstance(
                Snapshot.class.getClassLoader(),
                new Class<?>[] {Snapshot.class},
                (proxy, method, args) -> {
                  throw new AssertionError("read the snapshot: " + method.getName());
                });
    KeyDeleteTargets targets = KeyDeleteTargets.of(table, unread);
    assertThat(targets.currentSpecOnly()).isTrue();
  }

  @Test
  void anEvolvedTableWhoseLiveFilesAreAllInTheCurrentSpecIsWrittenAsBefore() {
    Table table = create(PartitionSpec.builderFor(SCHEMA).bucket("id", 2).build());
    table.updateSpec().removeField("id_bucket").addField(Expressions.bucket("id", 4)).commit();
    append(table);
    assertThat(KeyDeleteTargets.of(table, table.currentSnapshot()).currentSpecOnly()).isTrue();
  }

  @Test
  void aLiveUnpartitionedSpecTakesEveryDeleteAlone() {
    Table table = create(PartitionSpec.unpartitioned());
    append(table);
    table.updateSpec().addField(Expressions.bucket("id", 4)).addField("customer").commit();
    append(table);
    KeyDeleteTargets targets = KeyDeleteTargets.of(table, table.currentSnapshot());
    assertThat(targets.currentSpecByKey()).isFalse();
    assertThat(targets.byKey()).extracting(PartitionSpec::specId).containsExactly(0);
    assertThat(targets.byPosition()).isEmpty();
  }

  @Test
  void keyPartitionedSpecsGetDeletesByKeyAndOthersAreScanned() {
    Table table = create(PartitionSpec.builderFor(SCHEMA).bucket("id", 2).build());
    append(table);
    table.updateSpec().addField(Expressions.truncate("customer", 1)).commit();
    append(table);
    KeyDeleteTargets targets = KeyDeleteTargets.of(table, table.currentSnapshot());
    assertThat(targets.currentSpecByKey()).isFalse();
    assertThat(targets.byKey()).extracting(PartitionSpec::specId).containsExactly(0);
    assertThat(targets.byPosition()).containsExactly(1);

    // Back to the key's bucket alone (Iceberg makes spec 0 current again): the files of spec 1
    // are still scanned.
    table.updateSpec().removeField(Expressions.truncate("customer", 1)).commit();
    KeyDeleteTargets after = KeyDeleteTargets.of(table, table.currentSnapshot());
    assertThat(after.currentSpecByKey()).isTrue();
    assertThat(after.byPosition()).containsExactly(1);
  }

  private Table create(PartitionSpec spec) {
    return lake.catalog().buildTable(TABLE, SCHEMA).withPartitionSpec(spec).create();
  }

  /** A data file of the current spec (metadata only: nothing reads it). */
  private static void append(Table table) {
    PartitionSpec spec = table.spec();
    GenericRecord row = GenericRecord.create(SCHEMA);
    row.setField("id", 1);
    row.setField("customer", "a");
    PartitionKey partition = new PartitionKey(spec, SCHEMA);
    partition.partition(row);
    table
        .newAppend()
        .appendFile(
            DataFiles.builder(spec)
                .withPath(table.location() + "/data/" + UUID.randomUUID() + ".parquet")
                .withFileSizeInBytes(100)
                .withRecordCount(1)
                .withPartition(spec.isUnpartitioned() ? null : partition)
                .build())
        .commit();
  }
}
