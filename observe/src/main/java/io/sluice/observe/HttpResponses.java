package io.sluice.observe;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Writing a whole response to an {@link HttpExchange}, for the handlers of an endpoint. */
public final class HttpResponses {
  public static final String TEXT = "text/plain; charset=utf-8";
  public static final String JSON = "application/json";

  private HttpResponses() {}

  /** Sends {@code status} with {@code body} in UTF-8 as {@code contentType}. */
  public static void send(HttpExchange exchange, int status, String contentType, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Sends {@code status} with a plain-text body. */
  public static void text(HttpExchange exchange, int status, String body) throws IOException {
    send(exchange, status, TEXT, body);
  }

  /** Sends {@code status} with {@code json} (already encoded) as {@code application/json}. */
  public static void json(HttpExchange exchange, int status, String json) throws IOException {
    send(exchange, status, JSON, json);
  }

  /** Sends {@code status} without a body. */
  public static void empty(HttpExchange exchange, int status) throws IOException {
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }
}
