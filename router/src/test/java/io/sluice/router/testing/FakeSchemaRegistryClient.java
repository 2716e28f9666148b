package io.sluice.router.testing;

import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.schema.registry.RegistryUnavailableException;
import io.sluice.schema.registry.SchemaNotFoundException;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.registry.SubjectNotFoundException;
import io.sluice.schema.registry.SubjectVersion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;

/**
 * An in-memory registry for unit tests: global ids by schema text, subjects with versions, and an
 * outage switch that makes the next N calls throw {@link RegistryUnavailableException}.
 */
public final class FakeSchemaRegistryClient implements SchemaRegistryClient {
  private final Map<String, Integer> idsByText = new HashMap<>();
  private final Map<Integer, Schema> schemas = new HashMap<>();
  private final Map<String, List<Integer>> subjects = new LinkedHashMap<>();
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private final AtomicInteger calls = new AtomicInteger();

  /** The next {@code n} calls throw {@link RegistryUnavailableException}. */
  public void failNext(int n) {
    failuresLeft.set(n);
  }

  /** Calls answered or failed so far. */
  public int calls() {
    return calls.get();
  }

  @Override
  public synchronized int register(String subject, Schema schema) {
    call();
    int id = idsByText.computeIfAbsent(schema.toString(), text -> idsByText.size() + 1);
    schemas.put(id, schema);
    List<Integer> versions = subjects.computeIfAbsent(subject, s -> new ArrayList<>());
    if (!versions.contains(id)) {
      versions.add(id);
    }
    return id;
  }

  @Override
  public synchronized Schema schemaById(int id) {
    call();
    Schema schema = schemas.get(id);
    if (schema == null) {
      throw new SchemaNotFoundException("Schema " + id + " not found");
    }
    return schema;
  }

  @Override
  public synchronized List<SubjectVersion> subjectVersionsById(int id) {
    call();
    List<SubjectVersion> result = new ArrayList<>();
    subjects.forEach(
        (subject, ids) -> {
          int index = ids.indexOf(id);
          if (index >= 0) {
            result.add(new SubjectVersion(subject, index + 1));
          }
        });
    return result;
  }

  @Override
  public synchronized boolean isIdInSubject(String subject, int id) {
    call();
    List<Integer> ids = subjects.get(subject);
    if (ids == null) {
      throw new SubjectNotFoundException("Subject '" + subject + "' not found.");
    }
    return ids.contains(id);
  }

  @Override
  public synchronized List<String> subjects() {
    call();
    return List.copyOf(subjects.keySet());
  }

  @Override
  public synchronized List<Integer> versions(String subject) {
    call();
    List<Integer> ids = subjects.get(subject);
    if (ids == null) {
      throw new SubjectNotFoundException("Subject '" + subject + "' not found.");
    }
    List<Integer> versions = new ArrayList<>();
    for (int i = 1; i <= ids.size(); i++) {
      versions.add(i);
    }
    return versions;
  }

  @Override
  public synchronized RegisteredSchema version(String subject, int version) {
    call();
    List<Integer> ids = subjects.get(subject);
    if (ids == null) {
      throw new SubjectNotFoundException("Subject '" + subject + "' not found.");
    }
    int id = ids.get(version - 1);
    return new RegisteredSchema(subject, version, id, schemas.get(id));
  }

  @Override
  public synchronized RegisteredSchema latest(String subject) {
    List<Integer> ids = subjects.get(subject);
    if (ids == null) {
      throw new SubjectNotFoundException("Subject '" + subject + "' not found.");
    }
    return version(subject, ids.size());
  }

  @Override
  public synchronized RegisteredSchema lookup(String subject, Schema schema) {
    call();
    Integer id = idsByText.get(schema.toString());
    List<Integer> ids = subjects.get(subject);
    if (id == null || ids == null || !ids.contains(id)) {
      throw new SchemaNotFoundException("Schema not found");
    }
    return new RegisteredSchema(subject, ids.indexOf(id) + 1, id, schema);
  }

  @Override
  public boolean isCompatible(String subject, Schema schema) {
    call();
    return true;
  }

  @Override
  public String compatibility(String subject) {
    call();
    return "BACKWARD";
  }

  @Override
  public void setCompatibility(String subject, String level) {
    call();
  }

  private void call() {
    calls.incrementAndGet();
    if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new RegistryUnavailableException(
          503, "registry unavailable (fake outage)", new java.io.IOException("connection refused"));
    }
  }
}
