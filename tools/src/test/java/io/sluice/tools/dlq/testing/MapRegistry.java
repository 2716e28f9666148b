package io.sluice.tools.dlq.testing;

import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.schema.registry.SchemaNotFoundException;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.registry.SubjectNotFoundException;
import io.sluice.schema.registry.SubjectVersion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/** A schema registry in a map, for unit tests: ids from 1, versions per subject from 1. */
public final class MapRegistry implements SchemaRegistryClient {
  private final Map<Integer, Schema> byId = new HashMap<>();
  private final Map<String, List<RegisteredSchema>> subjects = new LinkedHashMap<>();

  @Override
  public synchronized int register(String subject, Schema schema) {
    List<RegisteredSchema> versions = subjects.computeIfAbsent(subject, s -> new ArrayList<>());
    for (RegisteredSchema v : versions) {
      if (v.schema().equals(schema)) {
        return v.id();
      }
    }
    int id =
        byId.entrySet().stream()
            .filter(e -> e.getValue().equals(schema))
            .map(Map.Entry::getKey)
            .findFirst()
            .orElse(byId.size() + 1);
    byId.put(id, schema);
    versions.add(new RegisteredSchema(subject, versions.size() + 1, id, schema));
    return id;
  }

  @Override
  public synchronized Schema schemaById(int id) {
    Schema schema = byId.get(id);
    if (schema == null) {
      throw new SchemaNotFoundException("schema id " + id + " not found");
    }
    return schema;
  }

  @Override
  public synchronized List<SubjectVersion> subjectVersionsById(int id) {
    List<SubjectVersion> found = new ArrayList<>();
    subjects.forEach(
        (s, vs) ->
            vs.stream()
                .filter(v -> v.id() == id)
                .forEach(v -> found.add(new SubjectVersion(s, v.version()))));
    return found;
  }

  @Override
  public synchronized boolean isIdInSubject(String subject, int id) {
    return subjects.getOrDefault(subject, List.of()).stream().anyMatch(v -> v.id() == id);
  }

  @Override
  public synchronized List<String> subjects() {
    return List.copyOf(subjects.keySet());
  }

  @Override
  public synchronized List<Integer> versions(String subject) {
    return versionsOf(subject).stream().map(RegisteredSchema::version).toList();
  }

  @Override
  public synchronized RegisteredSchema version(String subject, int version) {
    return versionsOf(subject).get(version - 1);
  }

  @Override
  public synchronized RegisteredSchema latest(String subject) {
    List<RegisteredSchema> versions = versionsOf(subject);
    return versions.get(versions.size() - 1);
  }

  @Override
  public RegisteredSchema lookup(String subject, Schema schema) {
    throw new UnsupportedOperationException("lookup");
  }

  @Override
  public boolean isCompatible(String subject, Schema schema) {
    throw new UnsupportedOperationException("isCompatible");
  }

  @Override
  public String compatibility(String subject) {
    throw new UnsupportedOperationException("compatibility");
  }

  @Override
  public void setCompatibility(String subject, String level) {
    throw new UnsupportedOperationException("setCompatibility");
  }

  private List<RegisteredSchema> versionsOf(String subject) {
    List<RegisteredSchema> versions = subjects.get(subject);
    if (versions == null || versions.isEmpty()) {
      throw new SubjectNotFoundException("subject " + subject + " not found");
    }
    return versions;
  }
}
