package io.sluice.schema.server;

import io.sluice.schema.registry.IncompatibleSchemaException;
import io.sluice.schema.registry.InvalidSchemaException;
import io.sluice.schema.registry.RegistryException;
import io.sluice.schema.registry.SchemaNotFoundException;
import io.sluice.schema.registry.SubjectNotFoundException;
import io.sluice.schema.registry.SubjectVersion;
import io.sluice.schema.registry.VersionNotFoundException;
import io.sluice.schema.server.LogEntry.ConfigEntry;
import io.sluice.schema.server.LogEntry.SchemaEntry;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry's operations with Confluent semantics and error codes. Every change is written to
 * the durable log first and applied to the in-memory state only once the log acknowledged it. One
 * lock serialises everything: a single-node dev registry needs nothing finer.
 */
final class SchemaStore {
  private static final Logger log = LoggerFactory.getLogger(SchemaStore.class);
  static final int ERROR_SUBJECT_LEVEL_NOT_CONFIGURED = 40408;
  static final int ERROR_INVALID_VERSION = 42202;
  static final int ERROR_INVALID_COMPATIBILITY_LEVEL = 42203;
  static final int ERROR_STORE = 50001;

  private final RegistryState state;
  private final Consumer<LogEntry> durableLog;

  SchemaStore(RegistryState state, Consumer<LogEntry> durableLog) {
    this.state = state;
    this.durableLog = durableLog;
  }

  /**
   * Registers {@code schemaText} under {@code subject}: the existing id when the subject already
   * has this schema; else a new version, reusing the schema's global id when another subject has
   * it, or the next id.
   */
  synchronized int register(String subject, String schemaText) {
    Schema schema = parse(schemaText);
    String canonical = schema.toString();
    SchemaEntry existing = state.find(subject, canonical).orElse(null);
    if (existing != null) {
      return existing.id();
    }
    CompatibilityLevel level = state.effectiveLevel(subject);
    List<String> problems =
        CompatibilityChecker.problems(level, schema, state.parsedVersions(subject));
    if (!problems.isEmpty()) {
      throw new IncompatibleSchemaException(
          "Schema being registered is incompatible with an earlier schema for subject \""
              + subject
              + "\" (compatibility "
              + level
              + "): "
              + problems);
    }
    int id = state.idOf(canonical).orElse(state.maxId() + 1);
    int version = state.latest(subject).map(SchemaEntry::version).orElse(0) + 1;
    write(new SchemaEntry(subject, version, id, canonical));
    log.info("registered subject {} version {} as schema id {}", subject, version, id);
    return id;
  }

  synchronized SchemaEntry lookup(String subject, String schemaText) {
    String canonical = parse(schemaText).toString();
    requireSubject(subject);
    return state
        .find(subject, canonical)
        .orElseThrow(() -> new SchemaNotFoundException("Schema not found in subject " + subject));
  }

  synchronized List<String> subjects() {
    return state.subjects();
  }

  synchronized List<Integer> versions(String subject) {
    requireSubject(subject);
    return state.versions(subject).stream().map(SchemaEntry::version).toList();
  }

  /** The version named {@code versionSpec}: a positive number, or {@code latest} / {@code -1}. */
  synchronized SchemaEntry version(String subject, String versionSpec) {
    Integer number = parseVersion(versionSpec);
    requireSubject(subject);
    return (number == null ? state.latest(subject) : state.version(subject, number))
        .orElseThrow(
            () ->
                new VersionNotFoundException(
                    "Version " + versionSpec + " not found in subject " + subject));
  }

  synchronized String schemaText(int id) {
    return state
        .schemaText(id)
        .orElseThrow(() -> new SchemaNotFoundException("Schema " + id + " not found"));
  }

  synchronized List<SubjectVersion> usages(int id) {
    List<SubjectVersion> usages = state.usages(id);
    if (usages.isEmpty()) {
      throw new SchemaNotFoundException("Schema " + id + " not found");
    }
    return usages;
  }

  /**
   * Whether {@code schemaText} could be registered: against {@code latest} by the subject's level
   * (every version for the transitive levels); against one numbered version otherwise. A subject
   * without versions accepts anything.
   */
  synchronized boolean isCompatible(String subject, String versionSpec, String schemaText) {
    Schema schema = parse(schemaText);
    Integer number = parseVersion(versionSpec);
    CompatibilityLevel level = state.effectiveLevel(subject);
    List<Schema> against = state.parsedVersions(subject);
    if (number != null) {
      SchemaEntry chosen = version(subject, versionSpec);
      against = List.of(parse(chosen.schema()));
    }
    return CompatibilityChecker.problems(level, schema, against).isEmpty();
  }

  synchronized CompatibilityLevel globalLevel() {
    return state.globalLevel();
  }

  synchronized CompatibilityLevel subjectLevel(String subject, boolean defaultToGlobal) {
    Optional<CompatibilityLevel> level = state.subjectLevel(subject);
    if (level.isPresent()) {
      return level.get();
    }
    if (defaultToGlobal) {
      return state.globalLevel();
    }
    throw new RegistryException(
        404,
        ERROR_SUBJECT_LEVEL_NOT_CONFIGURED,
        "Subject '" + subject + "' does not have subject-level compatibility configured");
  }

  /** Sets the level of {@code subject}, or the global level when subject is null. */
  synchronized CompatibilityLevel setLevel(String subject, String levelText) {
    CompatibilityLevel level = CompatibilityLevel.parse(levelText);
    if (level == null) {
      throw new RegistryException(
          422, ERROR_INVALID_COMPATIBILITY_LEVEL, "Invalid compatibility level: " + levelText);
    }
    write(new ConfigEntry(subject, level));
    log.info("compatibility of {} set to {}", subject == null ? "(global)" : subject, level);
    return level;
  }

  private void write(LogEntry entry) {
    try {
      durableLog.accept(entry);
    } catch (RuntimeException e) {
      log.warn("could not store {}: {}", entry.getClass().getSimpleName(), e.getMessage());
      throw new RegistryException(
          500, ERROR_STORE, "Error while storing in the backend data store: " + e.getMessage(), e);
    }
    state.apply(entry);
  }

  private void requireSubject(String subject) {
    if (!state.hasSubject(subject)) {
      throw new SubjectNotFoundException("Subject '" + subject + "' not found.");
    }
  }

  /** The version number, or null for the latest. */
  private static Integer parseVersion(String versionSpec) {
    if ("latest".equals(versionSpec) || "-1".equals(versionSpec)) {
      return null;
    }
    try {
      int number = Integer.parseInt(versionSpec);
      if (number > 0) {
        return number;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new RegistryException(
        422,
        ERROR_INVALID_VERSION,
        "The specified version '"
            + versionSpec
            + "' is not a valid version id. Allowed values are between [1, 2^31-1] and the string"
            + " \"latest\"");
  }

  private static Schema parse(String schemaText) {
    if (schemaText == null || schemaText.isBlank()) {
      throw new InvalidSchemaException("Invalid schema: empty schema");
    }
    try {
      return new Schema.Parser().parse(schemaText);
    } catch (RuntimeException e) {
      // Avro 1.12 throws SchemaParseException, AvroTypeException, and for an unknown type name
      // even a NullPointerException: every one means the text is not a usable schema.
      throw new InvalidSchemaException("Invalid schema: " + e.getMessage());
    }
  }
}
