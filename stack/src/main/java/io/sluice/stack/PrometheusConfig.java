package io.sluice.stack;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the embedded stack's Prometheus scrapes: one job per component, each with the URLs of its
 * {@code /metrics} endpoints, all every {@code scrapeInterval}. {@link #toYaml()} renders it as a
 * {@code prometheus.yml}.
 *
 * @param scrapeInterval how often every target is scraped (also the scrape timeout, capped at
 *     Prometheus' default of 10 s, and the rule evaluation interval)
 * @param jobs job name to the http(s) URLs of its endpoints; the URLs of one job share scheme and
 *     path (Prometheus has one {@code metrics_path} per job)
 */
public record PrometheusConfig(Duration scrapeInterval, Map<String, List<URI>> jobs) {
  /** Short enough that a test sees a counter move within seconds. */
  public static final Duration DEFAULT_SCRAPE_INTERVAL = Duration.ofSeconds(1);

  private static final Duration MAX_SCRAPE_TIMEOUT = Duration.ofSeconds(10);

  public PrometheusConfig {
    if (scrapeInterval == null
        || scrapeInterval.toMillis() < 1
        || scrapeInterval.toNanos() % 1_000_000 != 0) {
      throw new IllegalArgumentException(
          "scrape interval must be a positive whole number of milliseconds, got " + scrapeInterval);
    }
    if (jobs == null || jobs.isEmpty()) {
      throw new IllegalArgumentException("Prometheus needs at least one scrape job");
    }
    Map<String, List<URI>> copy = new LinkedHashMap<>();
    jobs.forEach(
        (job, urls) -> {
          if (job == null || job.isBlank()) {
            throw new IllegalArgumentException("scrape job name must not be blank");
          }
          if (urls == null || urls.isEmpty()) {
            throw new IllegalArgumentException("scrape job " + job + " has no URL");
          }
          urls.forEach(url -> checkTarget(job, url));
          URI first = urls.get(0);
          for (URI url : urls) {
            if (!url.getScheme().equals(first.getScheme())
                || !metricsPath(url).equals(metricsPath(first))) {
              throw new IllegalArgumentException(
                  "scrape job "
                      + job
                      + ": "
                      + url
                      + " differs from "
                      + first
                      + " in scheme or path; give it a job of its own");
            }
          }
          copy.put(job, List.copyOf(urls));
        });
    jobs = Collections.unmodifiableMap(copy);
  }

  /**
   * The config for {@code targets} (job name to endpoint URLs as strings).
   *
   * @throws IllegalArgumentException naming the job and URL that is not an absolute http(s) URL
   */
  public static PrometheusConfig of(Duration scrapeInterval, Map<String, List<String>> targets) {
    Map<String, List<URI>> jobs = new LinkedHashMap<>();
    targets.forEach(
        (job, urls) -> {
          List<URI> uris = new ArrayList<>();
          for (String url : urls) {
            try {
              uris.add(new URI(url));
            } catch (URISyntaxException e) {
              throw new IllegalArgumentException(
                  "scrape job " + job + ": " + url + " is not a URL: " + e.getMessage(), e);
            }
          }
          jobs.put(job, uris);
        });
    return new PrometheusConfig(scrapeInterval, jobs);
  }

  /** Every target URL, as Prometheus reports it in {@code /api/v1/targets} ({@code scrapeUrl}). */
  public List<String> scrapeUrls() {
    List<String> urls = new ArrayList<>();
    jobs.values()
        .forEach(
            list ->
                list.forEach(u -> urls.add(u.getScheme() + "://" + hostPort(u) + metricsPath(u))));
    return urls;
  }

  /** The {@code prometheus.yml}: every string a double-quoted scalar, so no name can break it. */
  public String toYaml() {
    String interval = duration(scrapeInterval);
    String timeout =
        duration(
            scrapeInterval.compareTo(MAX_SCRAPE_TIMEOUT) > 0 ? MAX_SCRAPE_TIMEOUT : scrapeInterval);
    StringBuilder yaml = new StringBuilder();
    yaml.append("# Written by Sluice's embedded stack at every start; edits are overwritten.\n");
    yaml.append("global:\n");
    yaml.append("  scrape_interval: ").append(interval).append('\n');
    // A timeout above the interval is a config error in Prometheus.
    yaml.append("  scrape_timeout: ").append(timeout).append('\n');
    yaml.append("  evaluation_interval: ").append(interval).append('\n');
    yaml.append("scrape_configs:\n");
    jobs.forEach(
        (job, urls) -> {
          URI first = urls.get(0);
          yaml.append("  - job_name: ").append(quote(job)).append('\n');
          yaml.append("    scheme: ").append(quote(first.getScheme())).append('\n');
          yaml.append("    metrics_path: ").append(quote(metricsPath(first))).append('\n');
          yaml.append("    static_configs:\n");
          yaml.append("      - targets:\n");
          for (URI url : urls) {
            yaml.append("          - ").append(quote(hostPort(url))).append('\n');
          }
        });
    return yaml.toString();
  }

  private static void checkTarget(String job, URI url) {
    String problem = null;
    if (url == null) {
      problem = "null URL";
    } else if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
      problem = url + " is not an http(s) URL";
    } else if (url.getHost() == null) {
      problem = url + " has no host";
    } else if (url.getRawQuery() != null || url.getRawFragment() != null) {
      problem = url + " has a query or fragment; Prometheus scrapes a plain path";
    } else if (url.getRawUserInfo() != null) {
      problem = url + " has user info; credentials do not belong in a target";
    }
    if (problem != null) {
      throw new IllegalArgumentException("scrape job " + job + ": " + problem);
    }
  }

  private static String metricsPath(URI url) {
    String path = url.getRawPath();
    return path == null || path.isEmpty() ? "/metrics" : path;
  }

  private static String hostPort(URI url) {
    int port = url.getPort() > 0 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
    return url.getHost() + ":" + port;
  }

  /** Prometheus' duration syntax: whole seconds as {@code 5s}, anything else in ms. */
  static String duration(Duration d) {
    long millis = d.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }

  // A JSON string literal is a valid YAML double-quoted scalar (same escapes, \\uXXXX included).
  private static String quote(String value) {
    return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(value)) + '"';
  }
}
