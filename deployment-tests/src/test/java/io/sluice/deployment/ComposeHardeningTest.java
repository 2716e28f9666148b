package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.sluice.capture.config.CaptureConfig;
import io.sluice.router.config.RouterConfig;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compose/ lets no one in where they don't belong and keeps its state: every published port binds
 * to {@code SLUICE_BIND} (loopback by default), no secret is a literal in the repository (compose
 * reads them from the git-ignored compose/.env that {@code scripts/setup --compose} writes), every
 * stateful service keeps its state on a named volume, the Connect worker is hardened, each image is
 * built once, and the Sluice plugin's S3 dependencies (failsafe among them) resolve from its pom.
 * Shell snippets of the compose file run here with {@code sh}, Maven resolves the pom.
 */
class ComposeHardeningTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Path REPO = RepoFiles.root();
  private static final Path COMPOSE = REPO.resolve("compose");
  private static final String BIND = "${SLUICE_BIND:-127.0.0.1}:";

  /** The secret literals compose held before it read them from .env. */
  private static final List<String> OLD_SECRETS =
      List.of(
          "root-secret",
          "sluice-secret",
          "GF_SECURITY_ADMIN_PASSWORD: admin",
          "database.password=cdc",
          "IDENTIFIED BY 'cdc'",
          "IDENTIFIED BY 'sluice'",
          "access-key-id\": \"sluice\"",
          "s3.access-key-id=sluice");

  /** A compose variable that must be set, e.g. {@code ${MINIO_ROOT_USER:?run scripts/setup}}. */
  private static final Pattern REQUIRED_VARIABLE = Pattern.compile("\\$\\{([A-Z_]+):\\?[^}]*}");

  private static JsonNode services;
  private static JsonNode compose;

  @BeforeAll
  static void readCompose() throws IOException {
    compose = YAML.readTree(COMPOSE.resolve("docker-compose.yml").toFile());
    services = compose.path("services");
  }

  @Test
  void everyPublishedPortBindsToSluiceBindLoopbackByDefault() {
    List<String> ports = new ArrayList<>();
    services.forEach(s -> s.path("ports").forEach(p -> ports.add(p.asText())));
    assertThat(ports).hasSizeGreaterThan(12);
    assertThat(ports).allSatisfy(p -> assertThat(p).startsWith(BIND).matches(".*:\\d+:\\d+"));
  }

  @Test
  void noSecretLiteralIsLeftInComposeAndSecretsAreRequiredVariables() throws IOException {
    List<String> hits = new ArrayList<>();
    try (Stream<Path> files = Files.walk(COMPOSE)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        if (file.getFileName().toString().equals(".env")) {
          continue; // git-ignored, written by scripts/setup
        }
        String text = Files.readString(file);
        OLD_SECRETS.stream().filter(text::contains).forEach(s -> hits.add(file + ": " + s));
      }
    }
    assertThat(hits).isEmpty();

    // Every secret-looking environment value is a variable compose refuses to start without.
    Map<String, String> secrets = new LinkedHashMap<>();
    services
        .fields()
        .forEachRemaining(
            s ->
                s.getValue()
                    .path("environment")
                    .fields()
                    .forEachRemaining(
                        e -> {
                          if (e.getKey().matches(".*(PASSWORD|SECRET|ACCESS_+KEY|ROOT_USER).*")) {
                            secrets.put(s.getKey() + "." + e.getKey(), e.getValue().asText());
                          }
                        }));
    assertThat(secrets).hasSizeGreaterThanOrEqualTo(13);
    assertThat(secrets.values()).allSatisfy(v -> assertThat(v).matches(REQUIRED_VARIABLE));
    assertThat(requiredVariables()).isEqualTo(new TreeSet<>(setupEnvKeys()));
  }

  @Test
  void composeEnvIsGitIgnored() throws Exception {
    // compose reads the .env of its project directory (compose/); the repo root's is ignored too.
    for (String path : List.of("compose/.env", ".env")) {
      Process git =
          new ProcessBuilder("git", "check-ignore", "-q", path)
              .directory(REPO.toFile())
              .inheritIO()
              .start();
      assertThat(git.waitFor()).as("git check-ignore %s", path).isZero();
    }
  }

  @Test
  void setupWritesRandomSecretsOnlyReadableByItsOwnerAndKeepsAnExistingEnv(@TempDir Path dir)
      throws Exception {
    Path first = copyOfSetup(dir.resolve("first"));
    Path second = copyOfSetup(dir.resolve("second"));
    assertThat(run(first, "--compose").exitCode()).isZero();
    assertThat(run(second, "--compose").exitCode()).isZero();
    Path env = envOf(first);
    Properties written = load(env);
    assertThat(written.stringPropertyNames()).isEqualTo(new TreeSet<>(setupEnvKeys()));
    written.forEach((k, v) -> assertThat((String) v).as("%s", k).matches("[A-Za-z0-9]{32}"));
    assertThat(new LinkedHashSet<>(written.values())).hasSameSizeAs(written.values());
    Properties other = load(envOf(second));
    written.forEach((k, v) -> assertThat(other.getProperty((String) k)).isNotEqualTo(v));
    assertThat(Files.getPosixFilePermissions(env))
        .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    // A second run changes nothing; an .env of the operator's keeps its values.
    String before = Files.readString(env);
    Result again = run(first, "--compose");
    assertThat(again.exitCode()).isZero();
    assertThat(Files.readString(env)).isEqualTo(before);
    Files.writeString(env, "MYSQL_ROOT_PASSWORD=mine\n");
    Result kept = run(first, "--compose");
    assertThat(kept.exitCode()).isZero();
    assertThat(kept.output()).doesNotContain("mine");
    Properties merged = load(env);
    assertThat(merged.getProperty("MYSQL_ROOT_PASSWORD")).isEqualTo("mine");
    assertThat(merged.stringPropertyNames()).isEqualTo(new TreeSet<>(setupEnvKeys()));
    // No value reaches the output.
    merged.values().forEach(v -> assertThat(kept.output()).doesNotContain((String) v));

    Result help = run(first, "--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.output()).contains("--compose", "compose/.env", "never overwritten");
  }

  @Test
  void everyStatefulServiceKeepsItsStateOnANamedVolume() throws IOException {
    Map<String, String> mounts = new LinkedHashMap<>();
    mounts.put("kafka", services.path("kafka").path("environment").path("KAFKA_LOG_DIRS").asText());
    mounts.put("mysql", "/var/lib/mysql");
    mounts.put("minio", services.path("minio").path("command").get(1).asText());
    mounts.put("prometheus", "/prometheus");
    mounts.put("grafana", "/var/lib/grafana");
    // The REST fixture's JdbcCatalog: a SQLite file on the volume, not the image's in-memory one.
    String catalogUri =
        services.path("iceberg-rest").path("environment").path("CATALOG_URI").asText();
    assertThat(catalogUri).startsWith("jdbc:sqlite:/").doesNotContain("memory");
    mounts.put("iceberg-rest", catalogUri.substring("jdbc:sqlite:".length()));
    mounts.put("router", new RouterConfig(props("sluice/router.properties")).stateDir());

    Set<String> declared = new TreeSet<>();
    compose.path("volumes").fieldNames().forEachRemaining(declared::add);
    Set<String> used = new TreeSet<>();
    mounts.forEach(
        (service, path) -> {
          assertThat(path).as("%s state path", service).startsWith("/");
          String volume = null;
          for (JsonNode v : services.path(service).path("volumes")) {
            String[] parts = v.asText().split(":");
            if (!parts[0].startsWith(".") && (path + "/").startsWith(parts[1] + "/")) {
              volume = parts[0];
            }
          }
          assertThat(volume).as("named volume holding %s of %s", path, service).isNotNull();
          used.add(volume);
        });
    assertThat(declared).containsAll(used).hasSize(mounts.size());
  }

  @Test
  void theCaptureReadsItsPropertiesWithThePasswordFromTheEnvironment() throws Exception {
    Properties file = props("sluice/capture.properties");
    assertThat(file).doesNotContainKey(CaptureConfig.DATABASE_PASSWORD_CONFIG);
    JsonNode capture = services.path("capture");
    assertThat(capture.path("entrypoint").toString()).isEqualTo("[\"/bin/sh\",\"-c\"]");
    assertThat(capture.path("environment").path("SLUICE_CDC_PASSWORD").asText())
        .matches(REQUIRED_VARIABLE);
    // The service's own shell command, with `cat` in place of the JVM: what CaptureMain reads.
    String command = composeShell(capture.path("command").get(0).asText());
    Matcher java =
        Pattern.compile("exec java .* io\\.sluice\\.capture\\.CaptureMain ").matcher(command);
    assertThat(java.find()).as("the capture's java command in %s", command).isTrue();
    String shown =
        java.replaceFirst("exec cat ")
            .replace(
                "/etc/sluice/capture.properties",
                COMPOSE.resolve("sluice/capture.properties").toString());
    Result read = sh(shown, Map.of("SLUICE_CDC_PASSWORD", "s3cretFromEnv"));
    assertThat(read.exitCode()).as(read.output()).isZero();
    CaptureConfig config = new CaptureConfig(load(read.output()));
    assertThat(config.getPassword(CaptureConfig.DATABASE_PASSWORD_CONFIG).value())
        .isEqualTo("s3cretFromEnv");
    assertThat(config.getString(CaptureConfig.DATABASE_USER_CONFIG)).isEqualTo("cdc");
  }

  @Test
  void grafanaHasNoDefaultAdminPasswordAndAnonymousViewersOnlyOnLoopback() throws Exception {
    JsonNode grafana = services.path("grafana");
    assertThat(grafana.path("environment").path("GF_SECURITY_ADMIN_PASSWORD").asText())
        .matches(REQUIRED_VARIABLE);
    assertThat(grafana.path("environment").has("GF_AUTH_ANONYMOUS_ENABLED")).isFalse();
    String command = composeShell(grafana.path("command").get(0).asText());
    assertThat(command).endsWith("exec /run.sh\n");
    String probe = command.replace("exec /run.sh", "echo \"$GF_AUTH_ANONYMOUS_ENABLED\"");
    Map<String, String> expected =
        Map.of("127.0.0.1", "true", "0.0.0.0", "false", "192.168.1.5", "false");
    expected.forEach(
        (bind, anonymous) -> {
          Result r = sh(probe, Map.of("SLUICE_BIND", bind));
          assertThat(r.output().strip())
              .as("anonymous viewing with SLUICE_BIND=%s", bind)
              .isEqualTo(anonymous);
        });
  }

  @Test
  void connectIsHardenedAndEveryImageIsBuiltOnce() throws IOException {
    Properties worker = props("connect/connect-distributed.properties");
    assertThat(worker.getProperty("plugin.discovery")).isEqualTo("service_load");
    assertThat(worker.getProperty("plugin.path")).isEqualTo("/opt/connect-plugins");
    // The REST API has no authentication: no connector may point its clients elsewhere. The sinks
    // need no override (their consumer settings are the worker's).
    assertThat(worker.getProperty("connector.client.config.override.policy")).isEqualTo("None");
    assertThat(services.path("connect").path("environment").path("KAFKA_OPTS").asText())
        .contains("-Dorg.apache.kafka.disallowed.login.modules=")
        .contains("com.sun.security.auth.module.JndiLoginModule");
    String dockerfile = Files.readString(COMPOSE.resolve("connect.Dockerfile"));
    // Exactly the two plugin directories under plugin.path.
    assertThat(dockerfile)
        .contains("/opt/connect-plugins/iceberg-kafka-connect/lib")
        .contains("-DoutputDirectory=/opt/connect-plugins/sluice-connect-plugins/lib")
        .doesNotContainPattern("cp [^\\n]*iceberg-aws");

    Map<String, List<String>> builders = new LinkedHashMap<>();
    Map<String, String> images = new LinkedHashMap<>();
    services
        .fields()
        .forEachRemaining(
            s -> {
              String image = s.getValue().path("image").asText();
              images.put(s.getKey(), image);
              if (s.getValue().has("build")) {
                builders.computeIfAbsent(image, i -> new ArrayList<>()).add(s.getKey());
              }
            });
    builders.values().forEach(b -> assertThat(b).as("services building one image").hasSize(1));
    images.forEach(
        (service, image) -> {
          if (builders.containsKey(image) && !services.path(service).has("build")) {
            assertThat(services.path(service).path("pull_policy").asText())
                .as("%s uses the image %s built here", service, image)
                .isEqualTo("never");
          }
        });
    for (String file : List.of("connect.Dockerfile", "sluice.Dockerfile")) {
      List<String> mounts =
          Pattern.compile("--mount=\\S+")
              .matcher(Files.readString(COMPOSE.resolve(file)))
              .results()
              .map(m -> m.group())
              .toList();
      assertThat(mounts)
          .as(file)
          .isNotEmpty()
          .allSatisfy(
              m -> assertThat(m).isEqualTo("--mount=type=cache,target=/root/.m2,sharing=locked"));
    }
  }

  @Test
  void theSluicePluginsS3DependenciesResolveWithFailsafe(@TempDir Path lib) throws Exception {
    Path pom = COMPOSE.resolve("connect/sluice-plugin-s3/pom.xml");
    String dockerfile = Files.readString(COMPOSE.resolve("connect.Dockerfile"));
    String goal = "dependency:copy-dependencies -DincludeScope=runtime -DexcludeGroupIds=org.slf4j";
    assertThat(dockerfile.replaceAll("\\s*\\\\\\n\\s*", " "))
        .contains("-f /src/compose/connect/sluice-plugin-s3/pom.xml " + goal);
    List<String> command = new ArrayList<>(List.of("mvn", "-B", "-q", "-f", pom.toString()));
    command.addAll(List.of(goal.split(" ")));
    command.add("-DoutputDirectory=" + lib);
    Process mvn = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(mvn.getInputStream().readAllBytes());
    assertThat(mvn.waitFor()).as("mvn %s: %s", command, output).isZero();
    List<String> jars;
    try (Stream<Path> files = Files.list(lib)) {
      jars = files.map(p -> p.getFileName().toString()).sorted().toList();
    }
    assertThat(jars)
        .anyMatch(j -> j.matches("failsafe-3\\..*\\.jar"))
        .anyMatch(j -> j.matches("iceberg-aws-1\\..*\\.jar"))
        .anyMatch(j -> j.matches("iceberg-aws-bundle-.*\\.jar"))
        // The plugin zip has these; a second copy of another version would shadow it.
        .noneMatch(
            j -> j.matches("(iceberg-(core|api|common|bundled-guava)|slf4j|jackson|caffeine).*"));
  }

  // --- helpers -------------------------------------------------------------------------------

  /** A compose command string as its shell sees it: compose turns {@code $$} into {@code $}. */
  private static String composeShell(String composeValue) {
    return composeValue.replace("$$", "$");
  }

  private static Set<String> requiredVariables() throws IOException {
    Set<String> names = new TreeSet<>();
    Matcher m = REQUIRED_VARIABLE.matcher(Files.readString(COMPOSE.resolve("docker-compose.yml")));
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /** The keys scripts/setup writes to compose/.env (its ENV_KEYS array). */
  private static List<String> setupEnvKeys() throws IOException {
    Matcher m =
        Pattern.compile("ENV_KEYS=\\(([^)]*)\\)")
            .matcher(Files.readString(REPO.resolve("scripts/setup")));
    assertThat(m.find()).as("ENV_KEYS in scripts/setup").isTrue();
    return List.of(m.group(1).strip().split("\\s+"));
  }

  private static Path copyOfSetup(Path root) throws IOException {
    Files.createDirectories(root.resolve("scripts"));
    Files.createDirectories(root.resolve("compose"));
    Path setup = root.resolve("scripts/setup");
    Files.copy(REPO.resolve("scripts/setup"), setup);
    return setup;
  }

  private static Path envOf(Path setup) {
    return setup.getParent().getParent().resolve("compose/.env");
  }

  private record Result(int exitCode, String output) {}

  private static Result run(Path setup, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", setup.toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes());
    return new Result(p.waitFor(), output);
  }

  private static Result sh(String script, Map<String, String> env) {
    try {
      ProcessBuilder pb = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true);
      pb.environment().putAll(env);
      Process p = pb.start();
      String output = new String(p.getInputStream().readAllBytes());
      return new Result(p.waitFor(), output);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Properties load(Path file) throws IOException {
    try (Reader reader = Files.newBufferedReader(file)) {
      Properties p = new Properties();
      p.load(reader);
      return p;
    }
  }

  private static Properties load(String text) throws IOException {
    Properties p = new Properties();
    p.load(new StringReader(text));
    return p;
  }

  private static Properties props(String file) throws IOException {
    return load(COMPOSE.resolve(file));
  }
}
