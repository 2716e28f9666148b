package io.sluice.connect.upsert.maintenance;

import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Snapshot;

/** Iceberg metadata objects that answer only what the maintenance decisions ask of them. */
final class Fakes {
  private Fakes() {}

  /** A data file of rows of 100 bytes. */
  static DataFile dataFile(String location, long bytes) {
    return dataFile(location, bytes, Math.max(1, bytes / 100));
  }

  static DataFile dataFile(String location, long bytes, long rows) {
    return fake(
        DataFile.class,
        Map.of(
            "location",
            location,
            "fileSizeInBytes",
            bytes,
            "recordCount",
            rows,
            "toString",
            location));
  }

  static DeleteFile equalityDeletes(long dataSequenceNumber) {
    return fake(
        DeleteFile.class,
        Map.of(
            "content",
            FileContent.EQUALITY_DELETES,
            "dataSequenceNumber",
            dataSequenceNumber,
            "toString",
            "eq@" + dataSequenceNumber));
  }

  /**
   * A Parquet position-delete file of one row.
   *
   * @param referenced the one data file it deletes rows of, null when it may name several
   */
  static DeleteFile positionDeletes(long dataSequenceNumber, String referenced) {
    return positionDeletes(dataSequenceNumber, referenced, 1);
  }

  static DeleteFile positionDeletes(long dataSequenceNumber, String referenced, long rows) {
    return deletes(FileFormat.PARQUET, dataSequenceNumber, referenced, rows, "pos@");
  }

  /** The deletion vector of {@code referenced}, of {@code rows} positions. */
  static DeleteFile dv(long dataSequenceNumber, String referenced, long rows) {
    return deletes(FileFormat.PUFFIN, dataSequenceNumber, referenced, rows, "dv@");
  }

  private static DeleteFile deletes(
      FileFormat format, long dataSequenceNumber, String referenced, long rows, String name) {
    Map<String, Object> answers = new HashMap<>();
    answers.put("content", FileContent.POSITION_DELETES);
    answers.put("format", format);
    answers.put("dataSequenceNumber", dataSequenceNumber);
    answers.put("recordCount", rows);
    answers.put(
        "toString", name + dataSequenceNumber + (referenced == null ? "" : ":" + referenced));
    if (referenced != null) {
      answers.put("referencedDataFile", referenced);
    }
    return fake(DeleteFile.class, answers);
  }

  static Snapshot snapshot(long id, long timestampMillis, Map<String, String> summary) {
    return fake(
        Snapshot.class,
        Map.of(
            "snapshotId",
            id,
            "timestampMillis",
            timestampMillis,
            "summary",
            summary,
            "toString",
            "snapshot " + id));
  }

  @SuppressWarnings("unchecked")
  private static <T> T fake(Class<T> type, Map<String, Object> answers) {
    return (T)
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) -> {
              if (answers.containsKey(method.getName())) {
                return answers.get(method.getName());
              }
              // Unset: no single data file, no column bounds to tell one by.
              if (Set.of("referencedDataFile", "lowerBounds", "upperBounds")
                  .contains(method.getName())) {
                return null;
              }
              if (method.getName().equals("hashCode")) {
                return System.identityHashCode(proxy);
              }
              if (method.getName().equals("equals")) {
                return proxy == args[0];
              }
              throw new UnsupportedOperationException(
                  type.getSimpleName() + "." + method.getName());
            });
  }
}
