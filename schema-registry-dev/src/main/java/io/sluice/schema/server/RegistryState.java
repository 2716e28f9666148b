package io.sluice.schema.server;

import io.sluice.schema.registry.SubjectVersion;
import io.sluice.schema.server.LogEntry.ConfigEntry;
import io.sluice.schema.server.LogEntry.SchemaEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.Schema;

/**
 * What the registry knows, rebuilt from the {@code _schemas} log: subjects and their versions,
 * schemas by global id, compatibility levels. Not thread-safe: {@link SchemaStore} guards it.
 * Schema texts are canonical ({@link Schema#toString()} of the parsed schema), so equal schemas
 * have equal texts.
 */
final class RegistryState {
  static final CompatibilityLevel DEFAULT_LEVEL = CompatibilityLevel.BACKWARD;
  private static final Comparator<SubjectVersion> BY_SUBJECT_AND_VERSION =
      Comparator.comparing(SubjectVersion::subject).thenComparingInt(SubjectVersion::version);

  private final Map<String, NavigableMap<Integer, SchemaEntry>> subjects = new TreeMap<>();
  private final Map<Integer, String> schemaTexts = new HashMap<>();
  private final Map<String, Integer> idsByText = new HashMap<>();
  private final Map<Integer, TreeSet<SubjectVersion>> usages = new HashMap<>();
  private final Map<Integer, Schema> parsed = new HashMap<>();
  private final Map<String, CompatibilityLevel> subjectLevels = new HashMap<>();
  private CompatibilityLevel globalLevel = DEFAULT_LEVEL;
  private int maxId;

  void apply(LogEntry entry) {
    if (entry instanceof SchemaEntry schema) {
      subjects
          .computeIfAbsent(schema.subject(), s -> new TreeMap<>())
          .put(schema.version(), schema);
      schemaTexts.putIfAbsent(schema.id(), schema.schema());
      idsByText.putIfAbsent(schema.schema(), schema.id());
      usages
          .computeIfAbsent(schema.id(), id -> new TreeSet<>(BY_SUBJECT_AND_VERSION))
          .add(new SubjectVersion(schema.subject(), schema.version()));
      maxId = Math.max(maxId, schema.id());
    } else if (entry instanceof ConfigEntry config) {
      if (config.subject() == null) {
        globalLevel = config.level();
      } else {
        subjectLevels.put(config.subject(), config.level());
      }
    }
  }

  List<String> subjects() {
    return List.copyOf(subjects.keySet());
  }

  boolean hasSubject(String subject) {
    return subjects.containsKey(subject);
  }

  /** The versions of {@code subject}, oldest first; empty when the subject does not exist. */
  List<SchemaEntry> versions(String subject) {
    NavigableMap<Integer, SchemaEntry> versions = subjects.get(subject);
    return versions == null ? List.of() : List.copyOf(versions.values());
  }

  Optional<SchemaEntry> version(String subject, int version) {
    NavigableMap<Integer, SchemaEntry> versions = subjects.get(subject);
    return Optional.ofNullable(versions == null ? null : versions.get(version));
  }

  Optional<SchemaEntry> latest(String subject) {
    NavigableMap<Integer, SchemaEntry> versions = subjects.get(subject);
    return Optional.ofNullable(
        versions == null || versions.isEmpty() ? null : versions.lastEntry().getValue());
  }

  /** The version of {@code subject} whose canonical text is {@code schemaText}. */
  Optional<SchemaEntry> find(String subject, String schemaText) {
    return versions(subject).stream().filter(v -> v.schema().equals(schemaText)).findFirst();
  }

  Optional<String> schemaText(int id) {
    return Optional.ofNullable(schemaTexts.get(id));
  }

  Optional<Integer> idOf(String schemaText) {
    return Optional.ofNullable(idsByText.get(schemaText));
  }

  List<SubjectVersion> usages(int id) {
    TreeSet<SubjectVersion> found = usages.get(id);
    return found == null ? List.of() : List.copyOf(found);
  }

  /** The parsed schemas of {@code subject}'s versions, oldest first. */
  List<Schema> parsedVersions(String subject) {
    List<Schema> result = new ArrayList<>();
    for (SchemaEntry entry : versions(subject)) {
      result.add(
          parsed.computeIfAbsent(entry.id(), id -> new Schema.Parser().parse(entry.schema())));
    }
    return result;
  }

  int maxId() {
    return maxId;
  }

  CompatibilityLevel globalLevel() {
    return globalLevel;
  }

  Optional<CompatibilityLevel> subjectLevel(String subject) {
    return Optional.ofNullable(subjectLevels.get(subject));
  }

  CompatibilityLevel effectiveLevel(String subject) {
    return subjectLevels.getOrDefault(subject, globalLevel);
  }
}
