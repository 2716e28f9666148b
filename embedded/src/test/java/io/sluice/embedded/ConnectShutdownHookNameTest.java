package io.sluice.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.connect.runtime.Connect;
import org.junit.jupiter.api.Test;

/**
 * EmbeddedConnect waits for Kafka Connect's own shutdown hook by its thread name; this fails when a
 * Kafka upgrade renames it (then a SIGTERMed stack could hang again on a stopped broker).
 */
class ConnectShutdownHookNameTest {
  @Test
  void kafkaConnectStillNamesItsShutdownHookThreadAsEmbeddedConnectExpects() throws Exception {
    String classFile;
    try (InputStream in = Connect.class.getResourceAsStream("Connect.class")) {
      classFile = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
    assertThat(classFile)
        .as("the thread name in %s", Connect.class.getName())
        .contains(EmbeddedConnect.CONNECT_SHUTDOWN_HOOK);
  }
}
