package io.sluice.bench;

import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.schema.registry.SchemaNotFoundException;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.registry.SubjectNotFoundException;
import io.sluice.schema.registry.SubjectVersion;
import io.sluice.schema.registry.VersionNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * A registry held in this JVM's memory, for benchmarks that must measure validation rather than
 * HTTP. No compatibility rules: every new schema under a subject is a new version.
 */
public final class InMemorySchemaRegistryClient implements SchemaRegistryClient {
  private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();
  private final Map<Schema, Integer> idsBySchema = new ConcurrentHashMap<>();
  private final Map<String, List<Integer>> idsBySubject = new ConcurrentHashMap<>();
  private final Map<String, String> compatibility = new ConcurrentHashMap<>();
  private int lastId;

  @Override
  public synchronized int register(String subject, Schema schema) {
    Integer id = idsBySchema.get(schema);
    if (id == null) {
      id = ++lastId;
      idsBySchema.put(schema, id);
      schemasById.put(id, schema);
    }
    List<Integer> ids = idsBySubject.computeIfAbsent(subject, s -> new ArrayList<>());
    if (!ids.contains(id)) {
      ids.add(id);
    }
    return id;
  }

  @Override
  public Schema schemaById(int id) {
    Schema schema = schemasById.get(id);
    if (schema == null) {
      throw new SchemaNotFoundException("Schema " + id + " not found");
    }
    return schema;
  }

  @Override
  public synchronized List<SubjectVersion> subjectVersionsById(int id) {
    schemaById(id);
    List<SubjectVersion> versions = new ArrayList<>();
    idsBySubject.forEach(
        (subject, ids) -> {
          int index = ids.indexOf(id);
          if (index >= 0) {
            versions.add(new SubjectVersion(subject, index + 1));
          }
        });
    return versions;
  }

  @Override
  public synchronized boolean isIdInSubject(String subject, int id) {
    return idsBySubject.getOrDefault(subject, List.of()).contains(id);
  }

  @Override
  public synchronized List<String> subjects() {
    return List.copyOf(idsBySubject.keySet());
  }

  @Override
  public synchronized List<Integer> versions(String subject) {
    int count = ids(subject).size();
    List<Integer> versions = new ArrayList<>();
    for (int v = 1; v <= count; v++) {
      versions.add(v);
    }
    return versions;
  }

  @Override
  public synchronized RegisteredSchema version(String subject, int version) {
    List<Integer> ids = ids(subject);
    if (version < 1 || version > ids.size()) {
      throw new VersionNotFoundException("Version " + version + " not found in " + subject);
    }
    int id = ids.get(version - 1);
    return new RegisteredSchema(subject, version, id, schemasById.get(id));
  }

  @Override
  public synchronized RegisteredSchema latest(String subject) {
    return version(subject, ids(subject).size());
  }

  @Override
  public synchronized RegisteredSchema lookup(String subject, Schema schema) {
    Integer id = idsBySchema.get(schema);
    List<Integer> ids = ids(subject);
    if (id == null || !ids.contains(id)) {
      throw new SchemaNotFoundException("Schema not found under " + subject);
    }
    return new RegisteredSchema(subject, ids.indexOf(id) + 1, id, schema);
  }

  @Override
  public boolean isCompatible(String subject, Schema schema) {
    return true;
  }

  @Override
  public String compatibility(String subject) {
    return compatibility.getOrDefault(subject == null ? "" : subject, "BACKWARD");
  }

  @Override
  public void setCompatibility(String subject, String level) {
    compatibility.put(subject == null ? "" : subject, level);
  }

  private List<Integer> ids(String subject) {
    List<Integer> ids = idsBySubject.get(subject);
    if (ids == null) {
      throw new SubjectNotFoundException("Subject " + subject + " not found");
    }
    return ids;
  }
}
