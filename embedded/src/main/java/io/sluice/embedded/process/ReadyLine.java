package io.sluice.embedded.process;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The line a component in a {@link ChildJvm} prints to stdout once it serves: {@code READY} and
 * then {@code key=value} pairs separated by spaces, e.g. {@code READY bootstrap=127.0.0.1:9092}.
 * Values carry no spaces (addresses, URLs, pids).
 */
public record ReadyLine(String line, Map<String, String> values) {
  private static final String PREFIX = "READY";

  /** Whether {@code line} is a ready line. */
  public static boolean isReady(String line) {
    return line.equals(PREFIX) || line.startsWith(PREFIX + " ");
  }

  /** The ready line of {@code values}, for a component's main to print. */
  public static String format(Map<String, String> values) {
    StringBuilder line = new StringBuilder(PREFIX);
    values.forEach((key, value) -> line.append(' ').append(key).append('=').append(value));
    return line.toString();
  }

  /** Parses a line for which {@link #isReady} holds. */
  public static ReadyLine parse(String line) {
    if (!isReady(line)) {
      throw new IllegalArgumentException("not a READY line: " + line);
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (String pair : line.substring(PREFIX.length()).strip().split(" +")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        values.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    return new ReadyLine(line, Map.copyOf(values));
  }

  /** The value of {@code key}; a clear error when the component did not print it. */
  public String value(String key) {
    String value = values.get(key);
    if (value == null) {
      throw new IllegalStateException("the READY line has no " + key + "=...: " + line);
    }
    return value;
  }
}
