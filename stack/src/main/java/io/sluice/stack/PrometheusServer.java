package io.sluice.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.embedded.process.OrphanGuard;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Prometheus server (the {@code prometheus} binary, e.g. Debian's) as a child process on
 * loopback, scraping what a {@link PrometheusConfig} names. Its files live in one home folder:
 * {@code prometheus.yml} (written at every start), {@code data/} (the TSDB, kept across starts),
 * {@code prometheus.log} (its stdout and stderr) and {@code prometheus.pid}.
 *
 * <p>No process outlives its owner: {@link #close()} stops it (SIGTERM, then SIGKILL after {@value
 * #STOP_GRACE_SECONDS} s), a JVM shutdown hook does the same when the JVM exits without closing,
 * and a start finds and stops a server that a killed JVM left running on the same home folder.
 */
public final class PrometheusServer implements AutoCloseable {
  /** Environment variable naming the binary when no explicit path is given. */
  public static final String BINARY_ENV = "SLUICE_PROMETHEUS";

  static final String SETUP_HINT = "scripts/setup --prometheus";
  private static final long STOP_GRACE_SECONDS = 5;
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Logger log = LoggerFactory.getLogger(PrometheusServer.class);

  private final Process process;
  private final String url;
  private final Path logFile;
  private final PrometheusConfig config;
  private final Thread shutdownHook;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();

  private PrometheusServer(Process process, int port, Path logFile, PrometheusConfig config) {
    this.process = process;
    this.url = "http://127.0.0.1:" + port;
    this.logFile = logFile;
    this.config = config;
    this.shutdownHook = new Thread(this::stop, "prometheus-stop");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * The binary to run: {@code explicit} when given, else {@code $SLUICE_PROMETHEUS}, else {@code
   * prometheus} on the {@code PATH}.
   *
   * @throws StackStartException when there is none, naming {@value #SETUP_HINT}
   */
  public static Path locate(Path explicit) {
    return locate(explicit, System.getenv(BINARY_ENV), System.getenv("PATH"));
  }

  static Path locate(Path explicit, String fromEnv, String searchPath) {
    if (explicit != null) {
      return executable(explicit, "--prometheus-binary " + explicit);
    }
    if (fromEnv != null && !fromEnv.isBlank()) {
      return executable(Path.of(fromEnv), BINARY_ENV + "=" + fromEnv);
    }
    for (String dir : (searchPath == null ? "" : searchPath).split(File.pathSeparator)) {
      if (!dir.isEmpty()) {
        Path candidate = Path.of(dir, "prometheus");
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return candidate;
        }
      }
    }
    throw new StackStartException(
        "no prometheus on the PATH: install it with "
            + SETUP_HINT
            + " (Debian's package), or name the binary with --prometheus-binary or "
            + BINARY_ENV);
  }

  private static Path executable(Path binary, String source) {
    if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
      throw new StackStartException(
          "prometheus binary "
              + binary
              + " (from "
              + source
              + ") is not an executable file; "
              + SETUP_HINT
              + " installs Debian's");
    }
    return binary;
  }

  /**
   * Writes {@code home/prometheus.yml}, starts {@code binary} on {@code 127.0.0.1:port} and waits
   * until it answers {@code GET /-/ready}.
   *
   * @throws StackStartException when it exits or does not answer within {@code timeout} (the
   *     process is stopped; the message carries the end of its log)
   */
  public static PrometheusServer start(
      Path binary, Path home, int port, PrometheusConfig config, Duration timeout) {
    Path configFile = home.resolve("prometheus.yml");
    Path dataDir = home.resolve("data");
    Path logFile = home.resolve("prometheus.log");
    Path pidFile = home.resolve("prometheus.pid");
    String configFlag = "--config.file=" + configFile;
    Process process;
    try {
      Files.createDirectories(dataDir);
      stopLeftover(pidFile, configFlag);
      Files.writeString(configFile, config.toYaml(), StandardCharsets.UTF_8);
      process =
          new ProcessBuilder(
                  binary.toString(),
                  configFlag,
                  "--storage.tsdb.path=" + dataDir,
                  "--web.listen-address=127.0.0.1:" + port)
              .directory(home.toFile())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
              .start();
      Files.writeString(pidFile, String.valueOf(process.pid()), StandardCharsets.UTF_8);
      OrphanGuard.watch(process.toHandle(), "prometheus");
    } catch (IOException e) {
      throw new StackStartException("cannot start prometheus " + binary + " in " + home, e);
    }
    PrometheusServer server = new PrometheusServer(process, port, logFile, config);
    log.info("Started prometheus (pid {}) on {}, log {}", process.pid(), server.url, logFile);
    try {
      new Readiness()
          .check("Prometheus", "GET " + server.url + "/-/ready with status 200", server::ready)
          .await(timeout);
      return server;
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** Base URL of the HTTP API and UI, {@code http://127.0.0.1:<port>}. */
  public String url() {
    return url;
  }

  public Path logFile() {
    return logFile;
  }

  public long pid() {
    return process.pid();
  }

  public PrometheusConfig config() {
    return config;
  }

  /** Its exit code once it ended (137 after a SIGKILL), else empty. */
  public OptionalInt exitCode() {
    return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
  }

  /**
   * Blocks until every target of the config has been scraped successfully (health {@code up} in
   * {@code /api/v1/targets}).
   *
   * @throws StackStartException naming the targets still not up when {@code timeout} runs out
   */
  public void awaitTargetsUp(Duration timeout) {
    new Readiness()
        .check(
            "Prometheus",
            "every scrape target up in GET " + url + "/api/v1/targets",
            () -> {
              List<String> notUp = targetsNotUp();
              if (!notUp.isEmpty()) {
                // Thrown, not returned false, so the timeout's message names them.
                throw new IllegalStateException("not up: " + String.join(", ", notUp));
              }
              return true;
            })
        .await(timeout);
  }

  /** The configured targets not {@code up} yet, each with its health and last scrape error. */
  public List<String> targetsNotUp() throws IOException, InterruptedException {
    alive();
    JsonNode targets = get("/api/v1/targets?state=active").path("data").path("activeTargets");
    Map<String, JsonNode> byUrl = new HashMap<>();
    targets.forEach(t -> byUrl.put(t.path("scrapeUrl").asText(), t));
    List<String> notUp = new ArrayList<>();
    for (String scrapeUrl : config.scrapeUrls()) {
      JsonNode target = byUrl.get(scrapeUrl);
      if (target == null) {
        notUp.add(scrapeUrl + " (not discovered yet)");
      } else if (!"up".equals(target.path("health").asText())) {
        String error = target.path("lastError").asText("");
        notUp.add(
            scrapeUrl
                + " ("
                + target.path("health").asText()
                + (error.isEmpty() ? "" : ": " + error)
                + ")");
      }
    }
    return notUp;
  }

  /** Stops the process: SIGTERM, and SIGKILL when it has not exited after a few seconds. */
  @Override
  public void close() {
    stop();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // The JVM is shutting down: the hook runs stop() too, which is idempotent.
    }
  }

  private synchronized void stop() {
    if (!process.isAlive()) {
      return;
    }
    terminate(process.toHandle());
    log.info("Stopped prometheus (pid {})", process.pid());
  }

  private boolean ready() throws IOException, InterruptedException {
    alive();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url + "/-/ready")).timeout(REQUEST_TIMEOUT).build();
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
  }

  /** Fails at once (no point in waiting) when the process has exited. */
  private void alive() {
    if (!process.isAlive()) {
      throw new StackStartException(
          "prometheus exited with code "
              + process.exitValue()
              + "; the end of "
              + logFile
              + ":\n"
              + tail(logFile, 5));
    }
  }

  private JsonNode get(String pathAndQuery) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url + pathAndQuery)).timeout(REQUEST_TIMEOUT).build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("GET " + pathAndQuery + " answered " + response.statusCode());
    }
    return JSON.readTree(response.body());
  }

  /**
   * A Prometheus of this home folder that a killed JVM left running holds the TSDB lock and the
   * port: stop it. Only a process started with this very config file counts.
   */
  private static void stopLeftover(Path pidFile, String configFlag) throws IOException {
    if (!Files.exists(pidFile)) {
      return;
    }
    Optional<ProcessHandle> leftover;
    try {
      leftover = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim()));
    } catch (NumberFormatException e) {
      leftover = Optional.empty();
    }
    leftover
        .filter(ProcessHandle::isAlive)
        .filter(
            p ->
                p.info()
                    .arguments()
                    .map(args -> Arrays.asList(args).contains(configFlag))
                    .orElse(false))
        .ifPresent(
            p -> {
              log.warn("Stopping prometheus pid {} left running by an earlier start", p.pid());
              terminate(p);
            });
    Files.delete(pidFile);
  }

  private static void terminate(ProcessHandle process) {
    process.destroy();
    try {
      process.onExit().get(STOP_GRACE_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    } catch (Exception e) {
      log.warn("prometheus pid {} ignored SIGTERM; killing it", process.pid());
      process.destroyForcibly();
      process.onExit().join();
    }
  }

  private static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(cannot read it: " + e + ")";
    }
  }
}
