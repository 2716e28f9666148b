package io.sluice.schema.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.avro.Schema;

/**
 * {@link SchemaRegistryClient} over HTTP for the Confluent Schema Registry REST API (and Sluice's
 * dev registry, which serves the same subset). Thread-safe.
 *
 * <p>Caching: schemas by id and ids by (subject, schema) forever, since registry ids are immutable;
 * "id is in subject" forever once true; "unknown id" and "id not in subject" only for {@link
 * RegistryClientSettings#negativeCacheTtl()}, so a schema registered later is seen. Every cache is
 * bounded ({@link RegistryClientSettings#maxCacheEntries()}).
 */
public final class HttpSchemaRegistryClient implements SchemaRegistryClient {
  private final ObjectMapper json = new ObjectMapper();
  private final RegistryTransport transport;
  private final LruCache<Integer, Schema> schemasById;
  private final LruCache<SubjectSchema, Integer> idsBySubjectSchema;
  private final LruCache<SubjectSchema, RegisteredSchema> lookups;
  private final LruCache<SubjectId, Boolean> members;
  private final NegativeCache<SubjectId> nonMembers;
  private final NegativeCache<Integer> unknownIds;

  /** A client with the default settings ({@link RegistryClientSettings#defaults(String)}). */
  public static HttpSchemaRegistryClient create(String url) {
    return new HttpSchemaRegistryClient(RegistryClientSettings.defaults(url));
  }

  public HttpSchemaRegistryClient(String url, Duration requestTimeout, Duration negativeCacheTtl) {
    this(
        new RegistryClientSettings(
            url,
            requestTimeout,
            RegistryClientSettings.DEFAULT_CONNECT_TIMEOUT,
            negativeCacheTtl,
            RegistryClientSettings.DEFAULT_MAX_CACHE_ENTRIES));
  }

  public HttpSchemaRegistryClient(RegistryClientSettings settings) {
    this(settings, System::nanoTime);
  }

  HttpSchemaRegistryClient(RegistryClientSettings settings, LongSupplier nanoClock) {
    int max = settings.maxCacheEntries();
    this.transport = new RegistryTransport(settings, json);
    this.schemasById = new LruCache<>(max);
    this.idsBySubjectSchema = new LruCache<>(max);
    this.lookups = new LruCache<>(max);
    this.members = new LruCache<>(max);
    this.nonMembers = new NegativeCache<>(max, settings.negativeCacheTtl(), nanoClock);
    this.unknownIds = new NegativeCache<>(max, settings.negativeCacheTtl(), nanoClock);
  }

  @Override
  public int register(String subject, Schema schema) {
    SubjectSchema key = new SubjectSchema(subject, schema);
    Integer cached = idsBySubjectSchema.get(key);
    if (cached != null) {
      return cached;
    }
    String path = subjectPath(subject) + "/versions";
    JsonNode answer = transport.post(path, schemaBody(schema.toString()), about(subject));
    int id = Answers.requireInt(answer, "id", "POST " + path);
    idsBySubjectSchema.put(key, id);
    rememberMember(subject, id);
    unknownIds.remove(id);
    return id;
  }

  @Override
  public Schema schemaById(int id) {
    Schema cached = schemasById.get(id);
    if (cached != null) {
      return cached;
    }
    String path = "/schemas/ids/" + id;
    if (unknownIds.contains(id)) {
      throw unknownIdFromCache(id, path);
    }
    JsonNode answer;
    try {
      answer = transport.get(path, "schema id " + id);
    } catch (SchemaNotFoundException e) {
      unknownIds.add(id);
      throw e;
    }
    String type = answer.path("schemaType").asText("AVRO");
    if (!"AVRO".equals(type)) {
      throw new InvalidSchemaException(
          "GET " + path + " (schema id " + id + "): schema type is " + type + ", not AVRO");
    }
    return schemaFor(id, Answers.requireText(answer, "schema", "GET " + path), path);
  }

  /**
   * {@inheritDoc}
   *
   * @throws SchemaNotFoundException when no schema has this id
   */
  @Override
  public List<SubjectVersion> subjectVersionsById(int id) {
    String path = "/schemas/ids/" + id + "/versions";
    if (unknownIds.contains(id)) {
      throw unknownIdFromCache(id, path);
    }
    JsonNode answer;
    try {
      answer = transport.get(path, "schema id " + id);
    } catch (SchemaNotFoundException e) {
      unknownIds.add(id);
      throw e;
    }
    List<SubjectVersion> result = new ArrayList<>();
    for (JsonNode item : Answers.requireArray(answer, "GET " + path)) {
      String subject = Answers.requireText(item, "subject", "GET " + path);
      result.add(new SubjectVersion(subject, Answers.requireInt(item, "version", "GET " + path)));
      rememberMember(subject, id);
    }
    return List.copyOf(result);
  }

  /**
   * {@inheritDoc}
   *
   * @throws SchemaNotFoundException when no schema has this id at all
   */
  @Override
  public boolean isIdInSubject(String subject, int id) {
    SubjectId key = new SubjectId(subject, id);
    if (members.get(key) != null) {
      return true;
    }
    if (nonMembers.contains(key)) {
      return false;
    }
    boolean member = subjectVersionsById(id).stream().anyMatch(sv -> sv.subject().equals(subject));
    if (!member) {
      nonMembers.add(key);
    }
    return member;
  }

  @Override
  public List<String> subjects() {
    List<String> result = new ArrayList<>();
    for (JsonNode item :
        Answers.requireArray(transport.get("/subjects", "all subjects"), "GET /subjects")) {
      result.add(item.asText());
    }
    return List.copyOf(result);
  }

  @Override
  public List<Integer> versions(String subject) {
    String path = subjectPath(subject) + "/versions";
    List<Integer> result = new ArrayList<>();
    for (JsonNode item : Answers.requireArray(transport.get(path, about(subject)), "GET " + path)) {
      result.add(item.asInt());
    }
    return List.copyOf(result);
  }

  @Override
  public RegisteredSchema version(String subject, int version) {
    return fetchVersion(subject, Integer.toString(version));
  }

  @Override
  public RegisteredSchema latest(String subject) {
    return fetchVersion(subject, "latest");
  }

  @Override
  public RegisteredSchema lookup(String subject, Schema schema) {
    SubjectSchema key = new SubjectSchema(subject, schema);
    RegisteredSchema cached = lookups.get(key);
    if (cached != null) {
      return cached;
    }
    String path = subjectPath(subject);
    JsonNode answer = transport.post(path, schemaBody(schema.toString()), about(subject));
    RegisteredSchema found = registered(answer, subject, "POST " + path);
    lookups.put(key, found);
    idsBySubjectSchema.put(key, found.id());
    return found;
  }

  @Override
  public boolean isCompatible(String subject, Schema schema) {
    String path = "/compatibility" + subjectPath(subject) + "/versions/latest";
    JsonNode answer = transport.post(path, schemaBody(schema.toString()), about(subject));
    JsonNode verdict = answer.get("is_compatible");
    if (verdict == null || !verdict.isBoolean()) {
      throw Answers.malformed("POST " + path, "is_compatible");
    }
    return verdict.booleanValue();
  }

  @Override
  public String compatibility(String subject) {
    String path = subject == null ? "/config" : configPath(subject) + "?defaultToGlobal=true";
    JsonNode answer = transport.get(path, subject == null ? "global config" : about(subject));
    // GET answers {"compatibilityLevel": ...}; accept the PUT spelling too.
    String field = answer.has("compatibilityLevel") ? "compatibilityLevel" : "compatibility";
    return Answers.requireText(answer, field, "GET " + path);
  }

  @Override
  public void setCompatibility(String subject, String level) {
    String path = subject == null ? "/config" : configPath(subject);
    ObjectNode body = json.createObjectNode().put("compatibility", level);
    transport.put(path, body, subject == null ? "global config" : about(subject));
  }

  private RegisteredSchema fetchVersion(String subject, String version) {
    String path = subjectPath(subject) + "/versions/" + version;
    return registered(transport.get(path, about(subject)), subject, "GET " + path);
  }

  private RegisteredSchema registered(JsonNode answer, String subject, String request) {
    int id = Answers.requireInt(answer, "id", request);
    int version = Answers.requireInt(answer, "version", request);
    Schema schema = schemaFor(id, Answers.requireText(answer, "schema", request), request);
    rememberMember(subject, id);
    return new RegisteredSchema(subject, version, id, schema);
  }

  /**
   * The parsed schema for {@code id}, parsed once; a fresh parser each time (parsers keep names).
   */
  private Schema schemaFor(int id, String text, String request) {
    Schema cached = schemasById.get(id);
    if (cached != null) {
      return cached;
    }
    Schema parsed;
    try {
      parsed = new Schema.Parser().parse(text);
    } catch (RuntimeException e) {
      // SchemaParseException, AvroTypeException, or for an unknown type name a
      // NullPointerException (Avro 1.12): all mean the registry's text is not usable Avro.
      throw new InvalidSchemaException(
          request + ": schema id " + id + " does not parse as Avro: " + e.getMessage());
    }
    schemasById.put(id, parsed);
    unknownIds.remove(id);
    return parsed;
  }

  private void rememberMember(String subject, int id) {
    SubjectId key = new SubjectId(subject, id);
    members.put(key, Boolean.TRUE);
    nonMembers.remove(key);
  }

  private ObjectNode schemaBody(String schemaText) {
    // schemaType is omitted: AVRO is the registry's default, and old registries reject the field.
    return json.createObjectNode().put("schema", schemaText);
  }

  private static SchemaNotFoundException unknownIdFromCache(int id, String path) {
    return new SchemaNotFoundException(
        "GET "
            + path
            + " (schema id "
            + id
            + "): registry answered error_code 40403 a moment ago (negative cache)");
  }

  private static String subjectPath(String subject) {
    return "/subjects/" + RegistryTransport.encode(subject);
  }

  private static String configPath(String subject) {
    return "/config/" + RegistryTransport.encode(subject);
  }

  private static String about(String subject) {
    return "subject '" + subject + "'";
  }

  /** Avro caches a schema's hash and compares the same instance first: cheap per record. */
  /**
   * A cache key: the subject and the schema's full text. Not the {@link Schema} itself: Avro's
   * equality ignores docs, while a registry keeps a version that differs only in a doc as a new
   * schema with an id of its own (keyed by the Schema, the second of two such versions was given
   * the first one's id without asking the registry).
   */
  private record SubjectSchema(String subject, String schema) {
    SubjectSchema(String subject, Schema schema) {
      this(subject, schema.toString());
    }
  }

  private record SubjectId(String subject, int id) {}
}
