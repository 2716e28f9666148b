package io.sluice.observe;

import java.util.Objects;

/**
 * One answer of {@code GET /health}: 200 when {@code up}, else 503, with {@code json} as the body.
 */
public record Health(boolean up, String json) {
  public Health {
    Objects.requireNonNull(json, "json");
  }

  /** {@code {"status":"<status>"}}, up or not. */
  public static Health status(boolean up, String status) {
    return new Health(up, "{\"status\":\"" + escape(status) + "\"}");
  }

  private static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
