package io.sluice.schema.registry;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of {@link HttpSchemaRegistryClient}.
 *
 * @param url base URL of the registry, e.g. {@code http://127.0.0.1:8081}
 * @param requestTimeout how long one request may take before it counts as unavailable
 * @param connectTimeout how long opening a connection may take
 * @param negativeCacheTtl how long "unknown id" and "id not in subject" answers are remembered
 * @param maxCacheEntries bound of each cache (ids, subject lookups, memberships)
 */
public record RegistryClientSettings(
    String url,
    Duration requestTimeout,
    Duration connectTimeout,
    Duration negativeCacheTtl,
    int maxCacheEntries) {

  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_NEGATIVE_CACHE_TTL = Duration.ofSeconds(5);
  public static final int DEFAULT_MAX_CACHE_ENTRIES = 10_000;

  public RegistryClientSettings {
    Objects.requireNonNull(url, "url");
    String trimmed = url.trim();
    if (!trimmed.startsWith("http://") && !trimmed.startsWith("https://")) {
      throw new IllegalArgumentException(
          "schema registry url must start with http:// or https://, got '" + url + "'");
    }
    if (trimmed.contains(",")) {
      throw new IllegalArgumentException(
          "schema registry url must be one URL (no comma-separated list), got '" + url + "'");
    }
    try {
      URI.create(trimmed);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("schema registry url is not a URI: '" + url + "'", e);
    }
    url = stripTrailingSlashes(url.trim());
    requirePositive("requestTimeout", requestTimeout);
    requirePositive("connectTimeout", connectTimeout);
    if (negativeCacheTtl == null || negativeCacheTtl.isNegative()) {
      throw new IllegalArgumentException("negativeCacheTtl must be >= 0, got " + negativeCacheTtl);
    }
    if (maxCacheEntries < 1) {
      throw new IllegalArgumentException("maxCacheEntries must be >= 1, got " + maxCacheEntries);
    }
  }

  /** The defaults: 10 s request timeout, 5 s connect timeout, 5 s negative TTL, 10 000 entries. */
  public static RegistryClientSettings defaults(String url) {
    return new RegistryClientSettings(
        url,
        DEFAULT_REQUEST_TIMEOUT,
        DEFAULT_CONNECT_TIMEOUT,
        DEFAULT_NEGATIVE_CACHE_TTL,
        DEFAULT_MAX_CACHE_ENTRIES);
  }

  private static void requirePositive(String name, Duration value) {
    if (value == null || value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(name + " must be > 0, got " + value);
    }
  }

  private static String stripTrailingSlashes(String url) {
    String result = url;
    while (result.endsWith("/")) {
      result = result.substring(0, result.length() - 1);
    }
    return result;
  }
}
