package io.sluice.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadyFileTest {
  @TempDir Path dir;

  @Test
  void writesOneJsonObjectWithTheGivenKeysInOrder() throws Exception {
    Path path = dir.resolve("nested/ready.json");
    Map<String, Object> entries = new LinkedHashMap<>();
    entries.put(ReadyFile.BOOTSTRAP_SERVERS, "127.0.0.1:9092");
    entries.put(ReadyFile.SCHEMA_REGISTRY_URL, "http://127.0.0.1:8081");
    entries.put(ReadyFile.ROUTER_METRICS_URL, "http://127.0.0.1:9400/metrics");
    entries.put("iceberg_catalog", Map.of("name", "lab", "type", "jdbc"));

    new ReadyFile(path).write(entries);

    JsonNode json = new ObjectMapper().readTree(path.toFile());
    assertThat(json.isObject()).isTrue();
    assertThat(json.fieldNames())
        .toIterable()
        .containsExactly(
            "bootstrap_servers", "schema_registry_url", "router_metrics_url", "iceberg_catalog");
    assertThat(json.get("bootstrap_servers").asText()).isEqualTo("127.0.0.1:9092");
    assertThat(json.get("iceberg_catalog").get("type").asText()).isEqualTo("jdbc");
    assertThat(new ReadyFile(path).read())
        .containsEntry("router_metrics_url", entries.get(ReadyFile.ROUTER_METRICS_URL));
  }

  @Test
  void replacesAnExistingFileWholeAndLeavesNoTemporaryFileBehind() throws Exception {
    Path path = dir.resolve("ready.json");
    ReadyFile file = new ReadyFile(path);
    file.write(Map.of("bootstrap_servers", "127.0.0.1:1111", "stale_key", "x"));

    file.write(Map.of("bootstrap_servers", "127.0.0.1:2222"));

    assertThat(file.read()).containsOnlyKeys("bootstrap_servers");
    assertThat(file.read().get("bootstrap_servers")).isEqualTo("127.0.0.1:2222");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).containsExactly(path);
    }
  }

  @Test
  void deleteRemovesTheFileAndToleratesAMissingOne() {
    Path path = dir.resolve("ready.json");
    ReadyFile file = new ReadyFile(path);
    file.write(Map.of("bootstrap_servers", "127.0.0.1:9092"));

    file.delete();
    file.delete();

    assertThat(path).doesNotExist();
  }

  @Test
  void readingAMissingFileNamesIt() {
    Path path = dir.resolve("missing.json");
    assertThatThrownBy(() -> new ReadyFile(path).read())
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("cannot read ready file")
        .hasMessageContaining("missing.json");
  }

  @Test
  void theIcebergCatalogObjectComesBackAsProperties() {
    Path path = dir.resolve("ready.json");
    Map<String, Object> catalog = new LinkedHashMap<>();
    catalog.put("name", "sluice");
    catalog.put("type", "jdbc");
    catalog.put("warehouse", null);
    new ReadyFile(path).write(Map.of(ReadyFile.ICEBERG_CATALOG, catalog));

    assertThat(new ReadyFile(path).icebergCatalog())
        .containsExactly(Map.entry("name", "sluice"), Map.entry("type", "jdbc"));
  }

  @Test
  void aMissingReadyFileOrCatalogSaysWhatToDo() {
    Path missing = dir.resolve("nope.json");
    assertThatThrownBy(() -> new ReadyFile(missing).icebergCatalog())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("no ready file at " + missing.toAbsolutePath())
        .hasMessageContaining("scripts/sluice up --ready-file");

    Path old = dir.resolve("old.json");
    new ReadyFile(old).write(Map.of(ReadyFile.BOOTSTRAP_SERVERS, "127.0.0.1:9092"));
    assertThatThrownBy(() -> new ReadyFile(old).icebergCatalog())
        .isInstanceOf(ReadyFileException.class)
        .hasMessage("ready file " + old + " has no iceberg_catalog object");
  }

  @Test
  void theTopicsObjectIsWrittenAsTheFixtureSaysAndReadBack() throws Exception {
    Path path = dir.resolve("ready.json");
    TopicNames names = TopicNames.of(".valid", ".quarantine");
    new ReadyFile(path).write(Map.of(ReadyFile.TOPICS, ReadyFile.topics(names)));

    assertThat(new ObjectMapper().readTree(path.toFile()))
        .isEqualTo(
            new ObjectMapper()
                .readTree(
                    "{\"topics\": {\"clean_suffix\": \".valid\", \"dlq_suffix\": \".quarantine\","
                        + " \"repairs_suffix\": \".repairs\"}}"));
    ReadyFile file = new ReadyFile(path);
    assertThat(file.topicNames(file.read(true))).isEqualTo(names);
  }

  @Test
  void noFileNoTopicsObjectOrAMissingSuffixMeansTheDefaults() throws Exception {
    Path path = dir.resolve("ready.json");
    ReadyFile file = new ReadyFile(path);
    assertThat(file.topicNames(file.read(false))).isEqualTo(TopicNames.DEFAULTS);

    file.write(Map.of(ReadyFile.BOOTSTRAP_SERVERS, "127.0.0.1:9092"));
    assertThat(file.topicNames(file.read(true))).isEqualTo(TopicNames.DEFAULTS);

    Files.writeString(path, "{\"topics\": {\"dlq_suffix\": \".quarantine\"}}");
    TopicNames names = file.topicNames(file.read(true));
    assertThat(names.cleanSuffix()).isEqualTo(".clean");
    assertThat(names.dlqSuffix()).isEqualTo(".quarantine");
    assertThat(names.repairsSuffix()).isEqualTo(".repairs");
  }

  @Test
  void aBadSuffixNamesTheFileTheFieldAndTheValue() throws Exception {
    Path path = dir.resolve("ready.json");
    Files.writeString(path, "{\"topics\": {\"clean_suffix\": \".x\", \"dlq_suffix\": \".a b\"}}");
    ReadyFile file = new ReadyFile(path);

    assertThatThrownBy(() -> file.topicNames(file.read(true)))
        .isInstanceOf(ReadyFileException.class)
        .hasMessage(
            "ready file "
                + path.toAbsolutePath()
                + ": topics.dlq_suffix: '.a b' may hold only letters, digits, '.', '_' and '-'"
                + " (a Kafka topic's)");

    Files.writeString(path, "{\"topics\": \".dlq\"}");
    assertThatThrownBy(() -> file.topicNames(file.read(true)))
        .isInstanceOf(ReadyFileException.class)
        .hasMessage("ready file " + path.toAbsolutePath() + ": topics is not a JSON object");
  }
}
