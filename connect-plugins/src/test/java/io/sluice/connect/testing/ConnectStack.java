package io.sluice.connect.testing;

import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.EmbeddedConnect;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.connect.SinkWorkerProperties;
import io.sluice.schema.server.DevSchemaRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * What the Connect ITs run on: an embedded broker, the dev schema registry, a distributed Connect
 * worker configured for the sinks ({@link SinkWorkerProperties}: no connector client override
 * allowed), a JdbcCatalog lake on SQLite and a producer of Avro change events.
 */
public final class ConnectStack implements AutoCloseable {
  /**
   * The worker's {@code consumer.metadata.max.age.ms}: a topic created while a sink follows {@code
   * topics.regex} is seen within this (Kafka's default: 5 min).
   */
  public static final long TOPIC_REFRESH_MS = 2_000;

  public final EmbeddedKafka kafka;
  public final DevSchemaRegistry registry;
  public final EmbeddedConnect connect;
  public final ConnectRestClient rest;
  public final Lake lake;
  public final ChangeProducer producer;

  private ConnectStack(
      EmbeddedKafka kafka,
      DevSchemaRegistry registry,
      EmbeddedConnect connect,
      Lake lake,
      ChangeProducer producer) {
    this.kafka = kafka;
    this.registry = registry;
    this.connect = connect;
    this.rest = connect.client();
    this.lake = lake;
    this.producer = producer;
  }

  /**
   * @param group the Connect worker's group id
   */
  public static ConnectStack start(Path dir, String group) throws Exception {
    EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"));
    DevSchemaRegistry registry = DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0);
    EmbeddedConnect connect =
        EmbeddedConnect.start(
            kafka.bootstrapServers(), group, 0, SinkWorkerProperties.of(TOPIC_REFRESH_MS));
    Files.createDirectories(dir.resolve("lake"));
    Lake lake = new Lake(dir.resolve("lake"));
    ChangeProducer producer = new ChangeProducer(kafka.bootstrapServers(), registry.url());
    return new ConnectStack(kafka, registry, connect, lake, producer);
  }

  /** Creates topics of {@code partitions} partitions each. */
  public void createTopics(int partitions, String... topics) throws Exception {
    try (Admin admin = admin()) {
      List<NewTopic> newTopics =
          Arrays.stream(topics).map(t -> new NewTopic(t, partitions, (short) 1)).toList();
      admin.createTopics(newTopics).all().get();
    }
  }

  /**
   * Lets {@code subject} take any schema (compatibility {@code NONE}), as a registry whose
   * compatibility checks were turned off does: how a retyped column reaches a clean topic.
   */
  public void setCompatibilityNone(String subject) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(registry.url() + "/config/" + subject))
            .header("Content-Type", "application/vnd.schemaregistry.v1+json")
            .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"NONE\"}"))
            .build();
    int status =
        HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    if (status != 200) {
      throw new IllegalStateException("PUT /config/" + subject + " answered HTTP " + status);
    }
  }

  public Admin admin() {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
  }

  /** Stops everything, the first-started last. */
  @Override
  public void close() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {producer, connect, lake, registry, kafka}) {
      c.close();
    }
  }
}
