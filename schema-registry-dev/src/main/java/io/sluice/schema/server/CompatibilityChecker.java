package io.sluice.schema.server;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;

/** Decides with Avro's own {@link SchemaCompatibility} whether a new schema may be registered. */
final class CompatibilityChecker {
  private CompatibilityChecker() {}

  /**
   * The reasons {@code candidate} breaks {@code level} against {@code previous} (a subject's
   * versions, oldest first); empty when it is compatible.
   */
  static List<String> problems(CompatibilityLevel level, Schema candidate, List<Schema> previous) {
    if (level == CompatibilityLevel.NONE || previous.isEmpty()) {
      return List.of();
    }
    List<Schema> against = level.transitive ? previous : List.of(previous.get(previous.size() - 1));
    List<String> problems = new ArrayList<>();
    for (Schema old : against) {
      if (level.backward) {
        describe(
            SchemaCompatibility.checkReaderWriterCompatibility(candidate, old), "new", problems);
      }
      if (level.forward) {
        describe(
            SchemaCompatibility.checkReaderWriterCompatibility(old, candidate), "old", problems);
      }
    }
    return problems;
  }

  private static void describe(SchemaPairCompatibility result, String reader, List<String> out) {
    if (result.getType() == SchemaCompatibilityType.COMPATIBLE) {
      return;
    }
    for (Incompatibility incompatibility : result.getResult().getIncompatibilities()) {
      out.add(
          incompatibility.getType()
              + " at "
              + incompatibility.getLocation()
              + " ("
              + reader
              + " schema as reader): "
              + incompatibility.getMessage());
    }
  }
}
