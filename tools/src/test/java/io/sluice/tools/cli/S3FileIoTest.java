package io.sluice.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The CLI carries S3FileIO: the catalog properties the README gives for compose (MinIO endpoint,
 * path-style access, static keys) make it ask that endpoint, signed with those keys. The endpoint
 * here is a stub that answers 404 and records what it was asked (a unit test of configuration, not
 * of S3).
 */
class S3FileIoTest {
  private static final String S3_FILE_IO = "org.apache.iceberg.aws.s3.S3FileIO";

  private final List<String> requests = new CopyOnWriteArrayList<>();
  private HttpServer stub;

  @BeforeEach
  void startStub() throws IOException {
    stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    stub.createContext(
        "/",
        exchange -> {
          String auth = exchange.getRequestHeaders().getFirst("Authorization");
          requests.add(
              exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " " + auth);
          exchange.sendResponseHeaders(404, -1);
          exchange.close();
        });
    stub.start();
  }

  @AfterEach
  void stopStub() {
    stub.stop(0);
  }

  @Test
  void composeCatalogPropertiesDriveS3FileIoAgainstTheMinioEndpoint() {
    Map<String, String> properties =
        Map.of(
            "s3.endpoint", "http://127.0.0.1:" + stub.getAddress().getPort(),
            "s3.path-style-access", "true",
            "s3.access-key-id", "sluice",
            "s3.secret-access-key", "sluice-secret",
            "client.region", "us-east-1");

    try (FileIO io = CatalogUtil.loadFileIO(S3_FILE_IO, properties, null)) {
      assertThat(io.newInputFile("s3://warehouse/cdc_lab/orders/metadata/v1.json").exists())
          .isFalse();
    }

    assertThat(requests)
        .isNotEmpty()
        .allSatisfy(
            r ->
                assertThat(r)
                    .startsWith("HEAD /warehouse/cdc_lab/orders/metadata/v1.json ")
                    .contains("Credential=sluice/"));
  }
}
