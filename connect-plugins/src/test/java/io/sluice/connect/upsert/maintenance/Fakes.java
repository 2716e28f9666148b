package io.sluice.connect.upsert.maintenance;

import java.lang.reflect.Proxy;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.Snapshot;

/** Iceberg metadata objects that answer only what the maintenance decisions ask of them. */
final class Fakes {
  private Fakes() {}

  static DataFile dataFile(String location, long bytes) {
    return fake(DataFile.class, Map.of("location", location, "fileSizeInBytes", bytes));
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
   * @param referenced the one data file it deletes rows of, null when it may name several
   */
  static DeleteFile positionDeletes(long dataSequenceNumber, String referenced) {
    return fake(
        DeleteFile.class,
        referenced == null
            ? Map.of(
                "content",
                FileContent.POSITION_DELETES,
                "dataSequenceNumber",
                dataSequenceNumber,
                "toString",
                "pos@" + dataSequenceNumber)
            : Map.of(
                "content",
                FileContent.POSITION_DELETES,
                "dataSequenceNumber",
                dataSequenceNumber,
                "referencedDataFile",
                referenced,
                "toString",
                "pos@" + dataSequenceNumber + ":" + referenced));
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
              if (method.getName().equals("referencedDataFile")) {
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
