package io.sluice.schema.testing;

import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.schema.registry.RegistryUnavailableException;
import io.sluice.schema.registry.SchemaNotFoundException;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.registry.SubjectNotFoundException;
import io.sluice.schema.registry.SubjectVersion;
import io.sluice.schema.registry.VersionNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * The schema registry held in memory, for tests and for benchmarks that must measure validation
 * rather than HTTP. Shipped in the test-jar of {@code sluice-schema}.
 *
 * <p>It answers like the Confluent registry behind {@link
 * io.sluice.schema.registry.HttpSchemaRegistryClient}: global ids from 1, one id per distinct
 * schema whatever the subject; versions per subject from 1, registering a schema a subject already
 * has adds no version; an unknown id throws {@link SchemaNotFoundException}, an unknown subject
 * {@link SubjectNotFoundException} (but {@link #isIdInSubject} is false for it), an unknown version
 * {@link VersionNotFoundException}. It has no compatibility rules: {@link #isCompatible} is always
 * true and the level is only stored (default {@code BACKWARD}).
 *
 * <p>For tests of outages, {@link #failNext(int)} makes the next calls throw {@link
 * RegistryUnavailableException}; {@link #calls()} counts every call, answered or failed.
 * Thread-safe.
 */
public final class InMemorySchemaRegistryClient implements SchemaRegistryClient {
  private static final String DEFAULT_COMPATIBILITY = "BACKWARD";

  private final Map<Schema, Integer> idsBySchema = new HashMap<>();
  private final List<Schema> schemasById = new ArrayList<>();
  private final Map<String, List<Integer>> idsBySubject = new LinkedHashMap<>();
  private final Map<String, String> compatibilityBySubject = new HashMap<>();
  private String globalCompatibility = DEFAULT_COMPATIBILITY;
  private int failuresLeft;
  private int calls;

  /** The next {@code n} calls throw {@link RegistryUnavailableException}, as in an outage. */
  public synchronized void failNext(int n) {
    failuresLeft = n;
  }

  /** Calls answered or failed so far, registrations included. */
  public synchronized int calls() {
    return calls;
  }

  @Override
  public synchronized int register(String subject, Schema schema) {
    call();
    Integer id = idsBySchema.get(schema);
    if (id == null) {
      schemasById.add(schema);
      id = schemasById.size();
      idsBySchema.put(schema, id);
    }
    List<Integer> ids = idsBySubject.computeIfAbsent(subject, s -> new ArrayList<>());
    if (!ids.contains(id)) {
      ids.add(id);
    }
    return id;
  }

  @Override
  public synchronized Schema schemaById(int id) {
    call();
    return schema(id);
  }

  @Override
  public synchronized List<SubjectVersion> subjectVersionsById(int id) {
    call();
    schema(id);
    List<SubjectVersion> found = new ArrayList<>();
    idsBySubject.forEach(
        (subject, ids) -> {
          int index = ids.indexOf(id);
          if (index >= 0) {
            found.add(new SubjectVersion(subject, index + 1));
          }
        });
    return List.copyOf(found);
  }

  @Override
  public synchronized boolean isIdInSubject(String subject, int id) {
    call();
    schema(id);
    return idsBySubject.getOrDefault(subject, List.of()).contains(id);
  }

  @Override
  public synchronized List<String> subjects() {
    call();
    return List.copyOf(idsBySubject.keySet());
  }

  @Override
  public synchronized List<Integer> versions(String subject) {
    call();
    List<Integer> versions = new ArrayList<>();
    for (int v = 1; v <= ids(subject).size(); v++) {
      versions.add(v);
    }
    return List.copyOf(versions);
  }

  @Override
  public synchronized RegisteredSchema version(String subject, int version) {
    call();
    return registered(subject, version);
  }

  @Override
  public synchronized RegisteredSchema latest(String subject) {
    call();
    return registered(subject, ids(subject).size());
  }

  @Override
  public synchronized RegisteredSchema lookup(String subject, Schema schema) {
    call();
    List<Integer> ids = ids(subject);
    Integer id = idsBySchema.get(schema);
    if (id == null || !ids.contains(id)) {
      throw new SchemaNotFoundException("schema not found under subject " + subject);
    }
    return new RegisteredSchema(subject, ids.indexOf(id) + 1, id, schema);
  }

  @Override
  public synchronized boolean isCompatible(String subject, Schema schema) {
    call();
    return true;
  }

  @Override
  public synchronized String compatibility(String subject) {
    call();
    return subject == null
        ? globalCompatibility
        : compatibilityBySubject.getOrDefault(subject, globalCompatibility);
  }

  @Override
  public synchronized void setCompatibility(String subject, String level) {
    call();
    if (subject == null) {
      globalCompatibility = level;
    } else {
      compatibilityBySubject.put(subject, level);
    }
  }

  private void call() {
    calls++;
    if (failuresLeft > 0) {
      failuresLeft--;
      throw new RegistryUnavailableException(
          503, "registry unavailable (in-memory outage)", new IOException("connection refused"));
    }
  }

  private Schema schema(int id) {
    if (id < 1 || id > schemasById.size()) {
      throw new SchemaNotFoundException("schema id " + id + " not found");
    }
    return schemasById.get(id - 1);
  }

  private List<Integer> ids(String subject) {
    List<Integer> ids = idsBySubject.get(subject);
    if (ids == null) {
      throw new SubjectNotFoundException("subject " + subject + " not found");
    }
    return ids;
  }

  private RegisteredSchema registered(String subject, int version) {
    List<Integer> ids = ids(subject);
    if (version < 1 || version > ids.size()) {
      throw new VersionNotFoundException(
          "version " + version + " of subject " + subject + " not found");
    }
    int id = ids.get(version - 1);
    return new RegisteredSchema(subject, version, id, schemasById.get(id - 1));
  }
}
