package io.sluice.schema.server;

import static io.sluice.schema.testing.Schemas.ORDER_KEY;
import static io.sluice.schema.testing.Schemas.ORDER_NO_DEFAULT;
import static io.sluice.schema.testing.Schemas.ORDER_V1;
import static io.sluice.schema.testing.Schemas.ORDER_V2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.FreePort;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.registry.IncompatibleSchemaException;
import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.schema.registry.SchemaNotFoundException;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.registry.SubjectVersion;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dev registry on a real embedded broker, driven through the real client. */
class DevSchemaRegistryIT {
  private static final String VALUE = "broker.cdc_lab.orders-value";
  private static final String KEY = "broker.cdc_lab.orders-key";

  @TempDir Path dir;

  @Test
  void servesTheClientApiWithConfluentSemantics() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"));
        DevSchemaRegistry registry =
            DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0)) {
      assertThat(registry.url()).isEqualTo("http://127.0.0.1:" + registry.port());
      SchemaRegistryClient client = HttpSchemaRegistryClient.create(registry.url());

      int v1 = client.register(VALUE, ORDER_V1);
      int key = client.register(KEY, ORDER_KEY);
      assertThat(List.of(v1, key)).containsExactly(1, 2);
      assertThat(client.register("copy-value", ORDER_V1))
          .as("same schema, other subject")
          .isEqualTo(v1);
      assertThat(client.schemaById(v1)).isEqualTo(ORDER_V1);
      assertThat(client.subjects()).containsExactly(KEY, VALUE, "copy-value");
      assertThat(client.subjectVersionsById(v1))
          .containsExactlyInAnyOrder(
              new SubjectVersion(VALUE, 1), new SubjectVersion("copy-value", 1));
      assertThat(client.isIdInSubject(VALUE, v1)).isTrue();
      assertThat(client.isIdInSubject(KEY, v1)).isFalse();
      assertThat(client.lookup(VALUE, ORDER_V1))
          .isEqualTo(new RegisteredSchema(VALUE, 1, v1, ORDER_V1));

      assertThat(client.isCompatible(VALUE, ORDER_NO_DEFAULT)).isFalse();
      assertThatThrownBy(() -> client.register(VALUE, ORDER_NO_DEFAULT))
          .isInstanceOf(IncompatibleSchemaException.class)
          .hasMessageContaining("POST /subjects/broker.cdc_lab.orders-value/versions")
          .hasMessageContaining("BACKWARD");

      assertThat(client.isCompatible(VALUE, ORDER_V2)).isTrue();
      int v2 = client.register(VALUE, ORDER_V2);
      assertThat(v2).isEqualTo(3);
      assertThat(client.versions(VALUE)).containsExactly(1, 2);
      assertThat(client.latest(VALUE)).isEqualTo(new RegisteredSchema(VALUE, 2, v2, ORDER_V2));
      assertThat(client.version(VALUE, 1).id()).isEqualTo(v1);

      assertThat(client.compatibility(null)).isEqualTo("BACKWARD");
      client.setCompatibility(VALUE, "NONE");
      assertThat(client.compatibility(VALUE)).isEqualTo("NONE");
      assertThat(client.compatibility(KEY)).as("falls back to global").isEqualTo("BACKWARD");
      assertThat(client.register(VALUE, ORDER_NO_DEFAULT)).isEqualTo(4);

      assertThatThrownBy(() -> client.schemaById(99))
          .isInstanceOf(SchemaNotFoundException.class)
          .hasMessageContaining("/schemas/ids/99")
          .hasMessageContaining("40403");
      assertSchemasTopicIsCompacted(kafka.bootstrapServers());
    }
  }

  @Test
  void answersConfluentErrorBodiesAndContentType() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"));
        DevSchemaRegistry registry =
            DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0)) {
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> root = get(http, registry.url() + "/");
      assertThat(root.statusCode()).isEqualTo(200);
      assertThat(root.body()).isEqualTo("{}");
      assertThat(root.headers().firstValue("Content-Type"))
          .hasValue("application/vnd.schemaregistry.v1+json");

      HttpResponse<String> missing = get(http, registry.url() + "/subjects/nope/versions");
      assertThat(missing.statusCode()).isEqualTo(404);
      assertThat(missing.body())
          .isEqualTo("{\"error_code\":40401,\"message\":\"Subject 'nope' not found.\"}");

      HttpResponse<String> invalid =
          http.send(
              HttpRequest.newBuilder(URI.create(registry.url() + "/subjects/x/versions"))
                  .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"schema\":\"{\\\"type\\\":\\\"nope\\\"}\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(invalid.statusCode()).isEqualTo(422);
      assertThat(invalid.body()).startsWith("{\"error_code\":42201,\"message\":\"Invalid schema");
    }
  }

  @Test
  void idsVersionsAndConfigSurviveARegistryRestart() {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"))) {
      int v1;
      int key;
      try (DevSchemaRegistry first =
          DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0)) {
        SchemaRegistryClient client = HttpSchemaRegistryClient.create(first.url());
        v1 = client.register(VALUE, ORDER_V1);
        key = client.register(KEY, ORDER_KEY);
        client.setCompatibility(KEY, "FULL");
      }
      try (DevSchemaRegistry second =
          DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0)) {
        assertRestored(HttpSchemaRegistryClient.create(second.url()), v1, key);
      }
    }
  }

  @Test
  void idsVersionsAndConfigSurviveABrokerRestartOnTheSameLogDir() {
    Path logDir = dir.resolve("kafka");
    int brokerPort = FreePort.pick();
    int controllerPort = FreePort.pick();
    int v1;
    int key;
    try (EmbeddedKafka kafka = EmbeddedKafka.start(logDir, brokerPort, controllerPort);
        DevSchemaRegistry registry =
            DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0)) {
      SchemaRegistryClient client = HttpSchemaRegistryClient.create(registry.url());
      v1 = client.register(VALUE, ORDER_V1);
      key = client.register(KEY, ORDER_KEY);
      client.setCompatibility(KEY, "FULL");
    }
    try (EmbeddedKafka kafka = EmbeddedKafka.start(logDir, brokerPort, controllerPort);
        DevSchemaRegistry registry =
            DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0)) {
      assertRestored(HttpSchemaRegistryClient.create(registry.url()), v1, key);
    }
  }

  /** The state written before the restart, and new registrations continuing after the max id. */
  private static void assertRestored(SchemaRegistryClient client, int v1, int key) {
    assertThat(client.schemaById(v1)).isEqualTo(ORDER_V1);
    assertThat(client.schemaById(key)).isEqualTo(ORDER_KEY);
    assertThat(client.lookup(VALUE, ORDER_V1))
        .isEqualTo(new RegisteredSchema(VALUE, 1, v1, ORDER_V1));
    assertThat(client.register(VALUE, ORDER_V1)).as("already registered").isEqualTo(v1);
    assertThat(client.compatibility(KEY)).isEqualTo("FULL");
    assertThat(client.register("copy-value", ORDER_KEY)).as("same schema, same id").isEqualTo(key);

    int v2 = client.register(VALUE, ORDER_V2);
    assertThat(v2).isEqualTo(Math.max(v1, key) + 1);
    assertThat(client.versions(VALUE)).containsExactly(1, 2);
  }

  private static void assertSchemasTopicIsCompacted(String bootstrapServers) throws Exception {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    try (Admin admin = Admin.create(props)) {
      ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, DevSchemaRegistry.TOPIC);
      Map<ConfigResource, Config> configs = admin.describeConfigs(List.of(topic)).all().get();
      assertThat(configs.get(topic).get("cleanup.policy").value()).isEqualTo("compact");
      assertThat(
              admin
                  .describeTopics(List.of(DevSchemaRegistry.TOPIC))
                  .allTopicNames()
                  .get()
                  .get(DevSchemaRegistry.TOPIC)
                  .partitions())
          .hasSize(1);
    }
  }

  private static HttpResponse<String> get(HttpClient http, String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
