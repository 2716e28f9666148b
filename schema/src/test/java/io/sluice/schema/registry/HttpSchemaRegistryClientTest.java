package io.sluice.schema.registry;

import static io.sluice.schema.testing.Schemas.ORDER_KEY;
import static io.sluice.schema.testing.Schemas.ORDER_V1;
import static io.sluice.schema.testing.Schemas.ORDER_V1_TEXT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.embedded.FreePort;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HttpSchemaRegistryClientTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SUBJECT = "orders-value";
  private static final Duration TTL = Duration.ofSeconds(5);

  private final StubRegistry stub = StubRegistry.start();
  private final AtomicLong nanos = new AtomicLong();

  @AfterEach
  void stopStub() {
    stub.close();
  }

  @Test
  void aVersionDifferingOnlyInADocIsRegisteredNotTakenFromTheCache() {
    stub.answer("POST", "/subjects/orders-value/versions", 200, "{\"id\":7}");
    HttpSchemaRegistryClient client = client(10_000);
    Schema documented =
        new Schema.Parser()
            .parse(ORDER_V1.toString().replaceFirst("\\{", "{\"doc\":\"a second version\","));
    assertThat(documented).as("Avro's equality ignores the doc").isEqualTo(ORDER_V1);

    client.register(SUBJECT, ORDER_V1);
    client.register(SUBJECT, documented);

    assertThat(stub.count("POST", "/subjects/orders-value/versions")).isEqualTo(2);
  }

  @Test
  void registerPostsTheSchemaWithoutSchemaTypeAndCachesTheId() throws Exception {
    stub.answer("POST", "/subjects/orders-value/versions", 200, "{\"id\":7}");
    HttpSchemaRegistryClient client = client(10_000);

    assertThat(client.register(SUBJECT, ORDER_V1)).isEqualTo(7);
    assertThat(client.register(SUBJECT, ORDER_V1)).isEqualTo(7);

    assertThat(stub.count("POST", "/subjects/orders-value/versions")).isEqualTo(1);
    StubRegistry.Request request = stub.requests().get(0);
    assertThat(request.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
    JsonNode body = JSON.readTree(request.body());
    assertThat(body.get("schema").asText()).isEqualTo(ORDER_V1.toString());
    assertThat(body.has("schemaType"))
        .as("AVRO is the default; old registries reject it")
        .isFalse();
    assertThat(client.isIdInSubject(SUBJECT, 7)).as("known from the registration").isTrue();
    assertThat(stub.requests()).hasSize(1);
  }

  @Test
  void schemaByIdIsFetchedOnceAndCachedForever() {
    stub.answer("GET", "/schemas/ids/7", 200, schemaBody(ORDER_V1_TEXT));
    HttpSchemaRegistryClient client = client(10_000);

    assertThat(client.schemaById(7)).isEqualTo(ORDER_V1);
    nanos.addAndGet(Duration.ofDays(1).toNanos());
    assertThat(client.schemaById(7)).isEqualTo(ORDER_V1);

    assertThat(stub.count("GET", "/schemas/ids/7")).isEqualTo(1);
  }

  @Test
  void unknownIdIsRememberedOnlyForTheNegativeTtl() {
    stub.answer("GET", "/schemas/ids/42", 404, error(40403, "Schema 42 not found"));
    HttpSchemaRegistryClient client = client(10_000);

    assertThatThrownBy(() -> client.schemaById(42))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessageContaining("GET /schemas/ids/42 (schema id 42)")
        .hasMessageContaining("error_code 40403");
    assertThatThrownBy(() -> client.schemaById(42))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessageContaining("schema id 42")
        .hasMessageContaining("negative cache");
    assertThatThrownBy(() -> client.subjectVersionsById(42))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessageContaining("schema id 42");
    assertThat(stub.requests()).hasSize(1);

    stub.answer("GET", "/schemas/ids/42", 200, schemaBody(ORDER_V1_TEXT));
    nanos.addAndGet(TTL.toNanos());
    assertThat(client.schemaById(42)).as("registered meanwhile").isEqualTo(ORDER_V1);
    assertThat(stub.count("GET", "/schemas/ids/42")).isEqualTo(2);
  }

  @Test
  void idOutsideTheSubjectIsSeenOnceRegisteredThereAfterTheTtl() {
    stub.answer(
        "GET", "/schemas/ids/7/versions", 200, "[{\"subject\":\"other-value\",\"version\":1}]");
    HttpSchemaRegistryClient client = client(10_000);

    assertThat(client.isIdInSubject(SUBJECT, 7)).isFalse();
    assertThat(client.isIdInSubject(SUBJECT, 7)).isFalse();
    assertThat(client.isIdInSubject("other-value", 7)).as("positive, learned on the way").isTrue();
    assertThat(stub.count("GET", "/schemas/ids/7/versions")).isEqualTo(1);

    stub.answer(
        "GET",
        "/schemas/ids/7/versions",
        200,
        "[{\"subject\":\"other-value\",\"version\":1},{\"subject\":\"orders-value\",\"version\":3}]");
    nanos.addAndGet(TTL.toNanos() - 1);
    assertThat(client.isIdInSubject(SUBJECT, 7)).as("still inside the TTL").isFalse();
    nanos.addAndGet(1);
    assertThat(client.isIdInSubject(SUBJECT, 7)).isTrue();
    assertThat(client.isIdInSubject(SUBJECT, 7)).isTrue();
    assertThat(stub.count("GET", "/schemas/ids/7/versions")).isEqualTo(2);
  }

  @Test
  void aStormOfRandomIdsCannotGrowTheCachesBeyondTheirBound() {
    HttpSchemaRegistryClient client = client(3);
    for (int id = 1; id <= 10; id++) {
      int unknown = id;
      stub.answer("GET", "/schemas/ids/" + id, 404, error(40403, "Schema " + id + " not found"));
      assertThatThrownBy(() -> client.schemaById(unknown))
          .isInstanceOf(SchemaNotFoundException.class)
          .hasMessageContaining("schema id " + unknown);
    }
    assertThatThrownBy(() -> client.schemaById(10)).hasMessageContaining("negative cache");
    assertThatThrownBy(() -> client.schemaById(1)).hasMessageContaining("error_code 40403");

    assertThat(stub.count("GET", "/schemas/ids/10")).as("recent: still cached").isEqualTo(1);
    assertThat(stub.count("GET", "/schemas/ids/1")).as("evicted: asked again").isEqualTo(2);
  }

  static Stream<Arguments> errorAnswers() {
    return Stream.of(
        Arguments.of(404, error(40403, "Schema 5 not found"), SchemaNotFoundException.class, false),
        Arguments.of(404, error(40401, "Subject not found"), SubjectNotFoundException.class, false),
        Arguments.of(404, error(40402, "Version not found"), VersionNotFoundException.class, false),
        Arguments.of(409, error(409, "incompatible"), IncompatibleSchemaException.class, false),
        Arguments.of(422, error(42201, "Invalid schema"), InvalidSchemaException.class, false),
        Arguments.of(422, "{}", InvalidSchemaException.class, false),
        Arguments.of(401, error(40101, "Unauthorized"), RegistryException.class, false),
        Arguments.of(500, error(50001, "store error"), RegistryUnavailableException.class, true),
        Arguments.of(503, "<html>busy</html>", RegistryUnavailableException.class, true),
        Arguments.of(429, "", RegistryUnavailableException.class, true));
  }

  @ParameterizedTest(name = "HTTP {0} {1} -> {2}")
  @MethodSource("errorAnswers")
  void errorAnswersBecomeTypedExceptions(
      int status, String body, Class<? extends RegistryException> type, boolean retryable) {
    stub.answer("GET", "/schemas/ids/5", status, body);
    HttpSchemaRegistryClient client = client(10_000);

    assertThatThrownBy(() -> client.schemaById(5))
        .isExactlyInstanceOf(type)
        .hasMessageContaining("GET /schemas/ids/5 (schema id 5): registry answered HTTP " + status)
        .satisfies(
            e -> {
              RegistryException error = (RegistryException) e;
              assertThat(error.isRetryable()).isEqualTo(retryable);
              assertThat(error.httpStatus()).isEqualTo(status);
            });
  }

  @Test
  void otherClientErrorsKeepTheirConfluentCode() {
    stub.answer("GET", "/subjects/orders-value/versions/0", 422, error(42202, "bad version"));
    HttpSchemaRegistryClient client = client(10_000);

    assertThatThrownBy(() -> client.version(SUBJECT, 0))
        .isExactlyInstanceOf(RegistryException.class)
        .hasMessageContaining("subject 'orders-value'")
        .hasMessageContaining("error_code 42202: bad version")
        .extracting(e -> ((RegistryException) e).errorCode())
        .isEqualTo(42202);
  }

  @Test
  void missingSubjectNamesTheSubjectAndThePath() {
    stub.answer("GET", "/subjects/orders-value/versions", 404, error(40401, "Subject not found."));

    assertThatThrownBy(() -> client(10_000).versions(SUBJECT))
        .isInstanceOf(SubjectNotFoundException.class)
        .hasMessage(
            "GET /subjects/orders-value/versions (subject 'orders-value'): registry answered HTTP"
                + " 404 error_code 40401: Subject not found.");
  }

  @Test
  void refusedConnectionIsRetryable() {
    HttpSchemaRegistryClient client =
        HttpSchemaRegistryClient.create("http://127.0.0.1:" + FreePort.pick());

    assertThatThrownBy(() -> client.schemaById(1))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("GET /schemas/ids/1 (schema id 1): cannot reach http://127.0.0.1:")
        .matches(e -> ((RegistryException) e).isRetryable());
  }

  @Test
  void slowAnswerIsARetryableTimeout() {
    stub.hang("GET", "/schemas/ids/1");
    HttpSchemaRegistryClient client =
        new HttpSchemaRegistryClient(stub.url(), Duration.ofMillis(300), TTL);

    assertThatThrownBy(() -> client.schemaById(1))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("no answer from " + stub.url() + " within PT0.3S")
        .matches(e -> ((RegistryException) e).isRetryable());
  }

  @Test
  void anAnswerThatIsNotJsonIsRetryable() {
    stub.answer("GET", "/schemas/ids/1", 200, "<html>login</html>");

    assertThatThrownBy(() -> client(10_000).schemaById(1))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("GET /schemas/ids/1 (schema id 1): answer is not JSON (18 chars)");
  }

  @Test
  void aSchemaThatIsNotAvroIsInvalid() {
    stub.answer(
        "GET", "/schemas/ids/3", 200, "{\"schema\":\"syntax = 1\",\"schemaType\":\"PROTOBUF\"}");
    stub.answer("GET", "/schemas/ids/4", 200, schemaBody("{\"type\":\"nope\"}"));
    HttpSchemaRegistryClient client = client(10_000);

    assertThatThrownBy(() -> client.schemaById(3))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("schema id 3): schema type is PROTOBUF, not AVRO");
    assertThatThrownBy(() -> client.schemaById(4))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("schema id 4 does not parse as Avro");
  }

  @Test
  void subjectsAreEncodedAsOnePathSegment() {
    stub.answer("GET", "/subjects/a%20b%2Fc%2Bd%C3%A9/versions", 200, "[1,2]");

    assertThat(client(10_000).versions("a b/c+dé")).containsExactly(1, 2);
  }

  @Test
  void versionsLatestAndLookupParseTheRegisteredSchema() throws Exception {
    String registered =
        JSON.writeValueAsString(
            Map.of("subject", SUBJECT, "version", 2, "id", 9, "schema", ORDER_V1_TEXT));
    stub.answer("GET", "/subjects", 200, "[\"orders-key\",\"orders-value\"]")
        .answer("GET", "/subjects/orders-value/versions/latest", 200, registered)
        .answer("GET", "/subjects/orders-value/versions/2", 200, registered)
        .answer("POST", "/subjects/orders-value", 200, registered);
    HttpSchemaRegistryClient client = client(10_000);
    RegisteredSchema expected = new RegisteredSchema(SUBJECT, 2, 9, ORDER_V1);

    assertThat(client.subjects()).containsExactly("orders-key", "orders-value");
    assertThat(client.latest(SUBJECT)).isEqualTo(expected);
    assertThat(client.version(SUBJECT, 2)).isEqualTo(expected);
    assertThat(client.lookup(SUBJECT, ORDER_V1)).isEqualTo(expected);
    assertThat(client.lookup(SUBJECT, ORDER_V1)).isEqualTo(expected);
    assertThat(client.register(SUBJECT, ORDER_V1)).as("id known from the lookup").isEqualTo(9);
    assertThat(client.schemaById(9)).isEqualTo(ORDER_V1);

    assertThat(stub.count("POST", "/subjects/orders-value")).isEqualTo(1);
    assertThat(stub.count("POST", "/subjects/orders-value/versions")).isZero();
    assertThat(stub.count("GET", "/schemas/ids/9")).isZero();
  }

  @Test
  void compatibilityCheckAndConfigUseConfluentFieldNames() throws Exception {
    stub.answer(
            "POST",
            "/compatibility/subjects/orders-value/versions/latest",
            200,
            "{\"is_compatible\":false}")
        .answer("GET", "/config", 200, "{\"compatibilityLevel\":\"BACKWARD\"}")
        .answer(
            "GET",
            "/config/orders-value?defaultToGlobal=true",
            200,
            "{\"compatibilityLevel\":\"FULL\"}")
        .answer("PUT", "/config/orders-value", 200, "{\"compatibility\":\"NONE\"}")
        .answer("PUT", "/config", 200, "{\"compatibility\":\"FORWARD\"}");
    HttpSchemaRegistryClient client = client(10_000);

    assertThat(client.isCompatible(SUBJECT, ORDER_KEY)).isFalse();
    assertThat(client.compatibility(null)).isEqualTo("BACKWARD");
    assertThat(client.compatibility(SUBJECT)).isEqualTo("FULL");
    client.setCompatibility(SUBJECT, "NONE");
    client.setCompatibility(null, "FORWARD");

    List<StubRegistry.Request> puts =
        stub.requests().stream().filter(r -> r.method().equals("PUT")).toList();
    assertThat(puts)
        .extracting(StubRegistry.Request::target)
        .containsExactly("/config/orders-value", "/config");
    assertThat(JSON.readTree(puts.get(0).body()))
        .isEqualTo(JSON.readTree("{\"compatibility\":\"NONE\"}"));
  }

  @Test
  void concurrentCallersShareOneClientAndItsCaches() throws Exception {
    stub.answer("GET", "/schemas/ids/7", 200, schemaBody(ORDER_V1_TEXT))
        .answer(
            "GET",
            "/schemas/ids/7/versions",
            200,
            "[{\"subject\":\"orders-value\",\"version\":1}]");
    HttpSchemaRegistryClient client = client(10_000);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int task = 0; task < 8; task++) {
        results.add(
            pool.submit(
                () -> {
                  boolean ok = true;
                  for (int i = 0; i < 200; i++) {
                    ok &= client.schemaById(7).equals(ORDER_V1) && client.isIdInSubject(SUBJECT, 7);
                  }
                  return ok;
                }));
      }
      for (Future<Boolean> result : results) {
        assertThat(result.get(30, TimeUnit.SECONDS)).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
    // Racing first callers may each ask once; after that every answer comes from the caches.
    assertThat(stub.requests()).hasSizeLessThanOrEqualTo(16);
  }

  @Test
  void aMissingFieldInAnAnswerIsNotAVerdict() {
    stub.answer("POST", "/subjects/orders-value/versions", 200, "{\"identifier\":7}");

    assertThatThrownBy(() -> client(10_000).register(SUBJECT, ORDER_V1))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("POST /subjects/orders-value/versions: answer lacks id");
  }

  private HttpSchemaRegistryClient client(int maxCacheEntries) {
    RegistryClientSettings settings =
        new RegistryClientSettings(
            stub.url() + "/", Duration.ofSeconds(5), Duration.ofSeconds(2), TTL, maxCacheEntries);
    return new HttpSchemaRegistryClient(settings, nanos::get);
  }

  private static String schemaBody(String schemaText) {
    try {
      return JSON.writeValueAsString(Map.of("schema", schemaText));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String error(int code, String message) {
    return "{\"error_code\":" + code + ",\"message\":\"" + message + "\"}";
  }
}
