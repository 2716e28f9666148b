package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * compose/standins/: the override scripts/test-compose runs compose/docker-compose.yml with. It may
 * only swap images for stand-ins built here (never an upstream name, which compose 1.29 would try
 * to pull), give Sluice's Dockerfiles stand-in base images through the build arguments they
 * declare, and change the MySQL-only settings: the mysql service's command and the capture's
 * connector. Everything else a user runs stays as compose/docker-compose.yml has it.
 */
class ComposeStandinsTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Path REPO = RepoFiles.root();
  private static final Path COMPOSE = REPO.resolve("compose");
  private static final Path STANDINS = COMPOSE.resolve("standins");
  private static final String STANDIN_PREFIX = "sluice-standin/";

  private static JsonNode services;
  private static JsonNode overrides;

  @BeforeAll
  static void readCompose() throws IOException {
    services = YAML.readTree(COMPOSE.resolve("docker-compose.yml").toFile()).path("services");
    overrides =
        YAML.readTree(STANDINS.resolve("docker-compose.standins.yml").toFile()).path("services");
  }

  @Test
  void theOverrideOnlySwapsImagesBuildBasesAndTheMysqlOnlySettings() {
    Map<String, Set<String>> allowed =
        Map.of(
            "mysql", Set.of("image", "command"),
            "capture", Set.of("volumes"),
            "router", Set.of("build"),
            "connect", Set.of("build"));
    List<String> problems = new ArrayList<>();
    overrides
        .fields()
        .forEachRemaining(
            service -> {
              String name = service.getKey();
              if (!services.has(name)) {
                problems.add(name + " is no service of compose/docker-compose.yml");
              }
              Set<String> keys = allowed.getOrDefault(name, Set.of("image"));
              service
                  .getValue()
                  .fieldNames()
                  .forEachRemaining(
                      key -> {
                        if (!keys.contains(key)) {
                          problems.add(name + " overrides " + key);
                        }
                      });
              for (Iterator<String> k = service.getValue().path("build").fieldNames();
                  k.hasNext(); ) {
                String key = k.next();
                if (!key.equals("args")) {
                  problems.add(name + " overrides build." + key);
                }
              }
            });
    assertThat(problems).isEmpty();
  }

  @Test
  void everySwappedImageIsAStandInOfAServiceThatHasAnImage() {
    List<String> images = new ArrayList<>();
    overrides
        .fields()
        .forEachRemaining(
            service -> {
              JsonNode image = service.getValue().path("image");
              if (!image.isMissingNode()) {
                assertThat(services.path(service.getKey()).has("image"))
                    .as("%s has an image in compose", service.getKey())
                    .isTrue();
                images.add(image.asText());
              }
              service
                  .getValue()
                  .path("build")
                  .path("args")
                  .forEach(value -> images.add(value.asText()));
            });
    assertThat(images).hasSizeGreaterThan(8);
    assertThat(images)
        .allSatisfy(
            image -> {
              assertThat(image).startsWith(STANDIN_PREFIX);
              assertThat(ComposeFilesTest.tagOf(image)).as(image).isNotNull();
            });
  }

  @Test
  void everyStandInImageIsBuiltByTestComposeFromAStandInDockerfile() throws IOException {
    Map<String, String> built = standinBuilds();
    assertThat(built).hasSizeGreaterThan(8);
    overrides
        .fields()
        .forEachRemaining(
            service -> {
              JsonNode image = service.getValue().path("image");
              if (!image.isMissingNode()) {
                assertThat(built).as("built by scripts/test-compose").containsKey(image.asText());
              }
              service
                  .getValue()
                  .path("build")
                  .path("args")
                  .forEach(
                      value ->
                          assertThat(built)
                              .as("built by scripts/test-compose")
                              .containsKey(value.asText()));
            });
    for (String dockerfile : built.values()) {
      assertThat(STANDINS.resolve(dockerfile)).exists();
    }
  }

  @Test
  void standInDockerfilesBuildOnStandInsOnly() throws IOException {
    for (String dockerfile : standinBuilds().values()) {
      assertThat(ComposeFilesTest.fromImages(STANDINS.resolve(dockerfile)))
          .as(dockerfile)
          .allSatisfy(image -> assertThat(image).startsWith(STANDIN_PREFIX));
    }
  }

  @Test
  void buildArgumentsAreTheBaseImageArgumentsOfTheServicesDockerfile() throws IOException {
    for (String name : List.of("router", "connect")) {
      Path dockerfile = REPO.resolve(services.path(name).path("build").path("dockerfile").asText());
      String text = Files.readString(dockerfile);
      assertThat(text).as("%s needs no frontend image", dockerfile).doesNotContain("# syntax=");
      List<String> args = new ArrayList<>();
      overrides.path(name).path("build").path("args").fieldNames().forEachRemaining(args::add);
      assertThat(args).as(name).isNotEmpty();
      for (String arg : args) {
        assertThat(text).as(dockerfile.toString()).containsPattern("(?m)^ARG " + arg + "=\\S+$");
        assertThat(text).as(dockerfile.toString()).containsPattern("(?m)^FROM \\$\\{" + arg + "}");
      }
    }
  }

  @Test
  void theStandInCaptureConfigIsComposesOnMariaDb() throws IOException {
    String mount = overrides.path("capture").path("volumes").get(0).asText();
    String target = mount.split(":")[1];
    assertThat(services.path("capture").path("volumes").toString())
        .as("compose mounts its capture.properties at the same path")
        .contains(":" + target + ":ro");
    Properties compose = properties(COMPOSE.resolve("sluice/capture.properties"));
    Properties standin = properties(COMPOSE.resolve(mount.split(":")[0]));
    assertThat(compose.getProperty("connector")).isEqualTo("mysql");
    assertThat(standin.getProperty("connector")).isEqualTo("mariadb");
    compose.remove("connector");
    standin.remove("connector");
    assertThat(standin).isEqualTo(compose);
  }

  @Test
  void theMysqlCommandIsComposesWithoutTheGtidOptions() {
    List<String> compose = new ArrayList<>();
    services.path("mysql").path("command").forEach(c -> compose.add(c.asText()));
    List<String> standin = new ArrayList<>();
    overrides.path("mysql").path("command").forEach(c -> standin.add(c.asText()));
    List<String> expected = new ArrayList<>(compose);
    expected.removeIf(
        option -> option.startsWith("--gtid-mode") || option.contains("gtid-consistency"));
    assertThat(expected).hasSize(compose.size() - 2);
    assertThat(standin).isEqualTo(expected);
  }

  /** Image name -> Dockerfile (under compose/standins/) of each build_standin line. */
  private static Map<String, String> standinBuilds() throws IOException {
    Map<String, String> builds = new LinkedHashMap<>();
    Matcher m =
        Pattern.compile("(?m)^build_standin (\\S+) (\\S+\\.Dockerfile) ")
            .matcher(Files.readString(REPO.resolve("scripts/test-compose")));
    while (m.find()) {
      builds.put(m.group(1), m.group(2));
    }
    return builds;
  }

  private static Properties properties(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file)) {
      p.load(r);
    }
    return p;
  }
}
