package io.sluice.schema.server;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RegistryMainTest {
  @Test
  void aBadPortIsNamedWithItsFlagBeforeAnythingStarts() {
    assertThatThrownBy(
            () ->
                RegistryMain.main(
                    new String[] {"--bootstrap-servers", "127.0.0.1:1", "--port", "http"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--port must be a port 0-65535")
        .hasMessageContaining("'http'");
  }

  @Test
  void theBootstrapServersAreRequired() {
    assertThatThrownBy(() -> RegistryMain.main(new String[] {"--port", "0"}))
        .hasMessage("RegistryMain needs --bootstrap-servers HOST:PORT");
  }
}
