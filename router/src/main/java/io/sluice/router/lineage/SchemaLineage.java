package io.sluice.router.lineage;

import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.registry.SubjectNotFoundException;
import io.sluice.schema.registry.VersionNotFoundException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * Which schema ids of a subject the clean topic takes, derived from the registry alone
 * (docs/design.md#schema-lineage): the subject's versions in order; the first is accepted; each
 * later one is accepted when the lake can follow it from what the accepted versions before it add
 * up to ({@link LakeSchema}). Every task and every restart derives the same answer, so the lineage
 * needs no state of its own.
 *
 * <p>A verdict is computed once per (subject, schema id); a new id walks the versions the subject
 * gained since the last walk. Registry calls throw {@link
 * io.sluice.schema.registry.RegistryUnavailableException} when the registry cannot answer: the
 * caller retries, and the walk goes on where it stopped. Thread-safe; at most {@link #MAX_SUBJECTS}
 * subjects are kept (all dropped when exceeded, then walked again).
 */
public final class SchemaLineage {
  static final int MAX_SUBJECTS = 10_000;

  private final SchemaRegistryClient registry;
  private final ConcurrentHashMap<String, Subject> subjects = new ConcurrentHashMap<>();

  public SchemaLineage(SchemaRegistryClient registry) {
    this.registry = registry;
  }

  /**
   * Null when schema {@code id}, a version of {@code subject} with writer schema {@code schema}, is
   * accepted; else why the lake cannot follow it. A key subject ({@code key}) also keeps its fields
   * and their nullability.
   */
  public Refusal judge(String subject, int id, Schema schema, boolean key) {
    Subject lineage = subjects.get(subject);
    if (lineage == null) {
      if (subjects.size() >= MAX_SUBJECTS) {
        subjects.clear();
      }
      lineage = subjects.computeIfAbsent(subject, s -> new Subject(s, key));
    }
    return lineage.judge(id, schema);
  }

  /** One subject's walk so far. */
  private final class Subject {
    private final String name;
    private final boolean key;
    private final Map<Integer, Refusal> verdicts = new HashMap<>();
    private LakeSchema lake = LakeSchema.EMPTY;
    private int walkedVersion;

    Subject(String name, boolean key) {
      this.name = name;
      this.key = key;
    }

    synchronized Refusal judge(int id, Schema schema) {
      if (!verdicts.containsKey(id)) {
        walk();
      }
      if (verdicts.containsKey(id)) {
        return verdicts.get(id);
      }
      // The id was in the subject a moment ago but is not among its versions now (deleted since):
      // judged against the lineage, without becoming part of it.
      return evolve(id, schema).refusal();
    }

    private void walk() {
      List<Integer> versions;
      try {
        versions = registry.versions(name);
      } catch (SubjectNotFoundException e) {
        return;
      }
      for (int version : versions) {
        if (version <= walkedVersion) {
          continue;
        }
        RegisteredSchema registered;
        try {
          registered = registry.version(name, version);
        } catch (VersionNotFoundException e) {
          walkedVersion = version; // deleted between the two calls
          continue;
        }
        LakeSchema.Evolution evolution = evolve(registered.id(), registered.schema());
        if (evolution.refusal() == null) {
          lake = evolution.next();
          verdicts.put(registered.id(), null);
        } else {
          verdicts.putIfAbsent(registered.id(), evolution.refusal());
        }
        walkedVersion = version;
      }
    }

    private LakeSchema.Evolution evolve(int id, Schema schema) {
      return lake.evolve(key ? LakeColumns.ofKey(schema) : LakeColumns.ofValue(schema), id, key);
    }
  }
}
