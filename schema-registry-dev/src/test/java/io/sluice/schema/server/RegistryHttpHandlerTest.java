package io.sluice.schema.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class RegistryHttpHandlerTest {

  @Test
  void pathSegmentsArePercentDecodedButPlusStaysPlus() {
    assertThat(RegistryHttpHandler.segments("/subjects/a%20b%2Fc+d/versions/"))
        .containsExactly("subjects", "a b/c+d", "versions");
    assertThat(RegistryHttpHandler.segments("/")).isEmpty();
  }

  @Test
  void unknownRoutesAndBadBodiesAnswerConfluentErrorBodies() throws Exception {
    try (DevSchemaRegistry registry = DevSchemaRegistry.startInMemory("127.0.0.1", 0)) {
      HttpClient http = HttpClient.newHttpClient();

      HttpResponse<String> unknown = send(http, registry.url() + "/nothing/here", "GET", null);
      assertThat(unknown.statusCode()).isEqualTo(404);
      assertThat(unknown.body())
          .isEqualTo("{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}");

      HttpResponse<String> delete = send(http, registry.url() + "/subjects/s", "DELETE", null);
      assertThat(delete.statusCode()).isEqualTo(405);
      assertThat(delete.body()).contains("DELETE is not supported by the dev schema registry");

      HttpResponse<String> types = send(http, registry.url() + "/schemas/types", "GET", null);
      assertThat(types.body()).isEqualTo("[\"AVRO\"]");

      HttpResponse<String> notJson =
          send(http, registry.url() + "/subjects/s/versions", "POST", "x");
      assertThat(notJson.statusCode()).isEqualTo(400);
      assertThat(notJson.body())
          .isEqualTo(
              "{\"error_code\":400,\"message\":\"Unrecognized request body: expected a JSON object\"}");

      HttpResponse<String> protobuf =
          send(
              http,
              registry.url() + "/subjects/s/versions",
              "POST",
              "{\"schema\":\"syntax = \\\"proto3\\\";\",\"schemaType\":\"PROTOBUF\"}");
      assertThat(protobuf.statusCode()).isEqualTo(422);
      assertThat(protobuf.body()).contains("\"error_code\":42201").contains("PROTOBUF");

      HttpResponse<String> level =
          send(http, registry.url() + "/config/s", "PUT", "{\"compatibility\":\"SIDEWAYS\"}");
      assertThat(level.statusCode()).isEqualTo(422);
      assertThat(level.body())
          .isEqualTo(
              "{\"error_code\":42203,\"message\":\"Invalid compatibility level: SIDEWAYS\"}");
    }
  }

  private static HttpResponse<String> send(HttpClient http, String url, String method, String body)
      throws Exception {
    HttpRequest.BodyPublisher publisher =
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body);
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).method(method, publisher).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
