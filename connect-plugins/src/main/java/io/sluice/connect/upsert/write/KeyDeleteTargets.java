package io.sluice.connect.upsert.write;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Where a batch written with equality deletes ({@link BatchWriter}) deletes the rows its keys have,
 * for each partition spec that the table's live data files are in at the batch's base snapshot.
 * Iceberg applies an equality delete only to data files of its own spec and partition, unless its
 * spec is unpartitioned (then to every data file); so the deletes of the current spec alone leave
 * the old rows of a key in files of an older spec, once an operator has evolved the spec.
 *
 * <ul>
 *   <li>A table whose live files are all in the current spec, partitioned by key columns only (or
 *       not at all): the current spec's equality deletes, by the key's partition, reach every row,
 *       as before spec evolution was considered. Found without reading anything when the table has
 *       one spec, from the manifest list otherwise: no scan planning.
 *   <li>A live unpartitioned spec: one equality delete file of it, with every key of the batch,
 *       reaches every data file of every spec (and rows another writer adds meanwhile, by sequence
 *       number); nothing else is needed.
 *   <li>Otherwise each live spec partitioned by key columns only gets equality deletes by the key's
 *       partition in that spec, and each spec partitioned by a column that is not the key (the old
 *       row's partition depends on its old value of that column) has the rows of the batch's keys
 *       found by a scan and deleted by position ({@link KeyRowScan}).
 * </ul>
 *
 * @param currentSpecByKey whether the batch's writer writes each key's equality delete in the
 *     current spec, at the key's partition (the rows' writer does it, as it writes the new rows)
 * @param byKey other specs that get an equality delete of each key at its partition there (an
 *     unpartitioned one: one file for every partition)
 * @param byPosition the ids of the specs whose live files are scanned for the batch's keys
 */
record KeyDeleteTargets(
    boolean currentSpecByKey, List<PartitionSpec> byKey, Set<Integer> byPosition) {
  private static final KeyDeleteTargets CURRENT_SPEC =
      new KeyDeleteTargets(true, List.of(), Set.of());

  /**
   * @param base the snapshot the batch is written at (null: the table has none)
   */
  static KeyDeleteTargets of(Table table, Snapshot base) {
    PartitionSpec current = table.spec();
    Set<Integer> keyIds = table.schema().identifierFieldIds();
    boolean currentByKey = byKey(current, keyIds);
    // An unpartitioned current spec's deletes are global already.
    if (current.isUnpartitioned() || base == null) {
      return CURRENT_SPEC;
    }
    Set<Integer> live =
        table.specs().size() == 1 ? Set.of(current.specId()) : liveSpecs(table, base);
    if (currentByKey && live.equals(Set.of(current.specId()))) {
      return CURRENT_SPEC;
    }
    for (int specId : live) {
      PartitionSpec spec = table.specs().get(specId);
      if (spec.isUnpartitioned()) {
        return new KeyDeleteTargets(false, List.of(spec), Set.of());
      }
    }
    List<PartitionSpec> others = new ArrayList<>();
    Set<Integer> scanned = new TreeSet<>();
    for (int specId : live) {
      PartitionSpec spec = table.specs().get(specId);
      if (!byKey(spec, keyIds)) {
        scanned.add(specId);
      } else if (specId != current.specId()) {
        others.add(spec);
      }
    }
    return new KeyDeleteTargets(currentByKey, List.copyOf(others), Set.copyOf(scanned));
  }

  /**
   * Whether every row of one key is in one partition of {@code spec}, found from the key alone:
   * each partition field is a transform of a key column.
   *
   * @param keyIds the table's identifier field ids
   */
  static boolean byKey(PartitionSpec spec, Set<Integer> keyIds) {
    for (PartitionField field : spec.fields()) {
      if (!keyIds.contains(field.sourceId())) {
        return false;
      }
    }
    return true;
  }

  /** Whether the batch's writer alone places every delete, as for a table never evolved. */
  boolean currentSpecOnly() {
    return currentSpecByKey && byKey.isEmpty() && byPosition.isEmpty();
  }

  /**
   * The specs of the data files live at {@code base}, and the current one, from the manifest list:
   * a data manifest with added or existing files has live files of its spec.
   */
  private static Set<Integer> liveSpecs(Table table, Snapshot base) {
    Set<Integer> live = new TreeSet<>();
    live.add(table.spec().specId());
    for (ManifestFile manifest : base.dataManifests(table.io())) {
      if (manifest.hasAddedFiles() || manifest.hasExistingFiles()) {
        live.add(manifest.partitionSpecId());
      }
    }
    return live;
  }
}
